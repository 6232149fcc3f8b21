import HTTP

/// What a cache entry is for: one kind of content of one remote file, for one account on one server.
///
/// The *version* (ETag, or size and modification time) is kept beside the key rather than in it, so a
/// changed file replaces its old entry instead of leaving it behind, and `--offline` can still find the
/// last version it saw.
package struct CacheKey: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The server and account: a normalized base URL plus the account name, so two accounts never share entries.
    package var server: String
    /// The Officer root (`home`, `shared`, …).
    package var root: String
    /// The remote path.
    package var path: String
    /// What is stored: ``Kind/body``, ``Kind/preview``, ``Kind/listing``, or an AI result such as `ai/ocr?lang=eng`.
    package var kind: String

    /// Common kinds of cached content.
    package enum Kind {
        /// The whole file.
        package static let body = "body"
        /// The first bytes, fetched to recognise a remote file.
        package static let preview = "preview"
        /// What a file is and holds (its facts as JSON), read from a few ranges of it.
        package static let facts = "facts"
        /// A folder's listing as JSON.
        package static let listing = "listing"
        /// A reduced image.
        package static let thumbnail = "thumbnail"
        /// The entry this client itself last wrote at the path (an upload, a copy, a folder it made), as JSON: what
        /// the server holds there when no listing of its folder is cached.
        package static let written = "written"
        /// The result of a remote AI action with its parameters, e.g. `ai/ocr?lang=eng`.
        package static func aiResult(action: String, parameters: [(String, String)] = []) -> String {
            let query = parameters.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
            return "ai/" + action + (query.isEmpty ? "" : "?" + query)
        }
    }

    /// Creates a key.
    package init(server: String, root: String, path: String, kind: String) {
        self.server = server
        self.root = root
        self.path = path
        self.kind = kind
    }

    /// `kind officer:root:/path @ server`.
    package var description: String { "\(kind) officer:\(root):\(path) @ \(server)" }

    /// The version of a file for which the server gives no ETag: its size and modification time.
    package static func version(size: Int64, modificationTime: Int64) -> String {
        "size=\(size);mtime=\(modificationTime)"
    }
}

import HTTP

/// What a cache entry is for: one kind of content of one remote file, for one account on one server.
///
/// The *version* (ETag, or size and modification time) is kept beside the key rather than in it, so a
/// changed file replaces its old entry instead of leaving it behind, and `--offline` can still find the
/// last version it saw.
public struct CacheKey: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The server and account: a normalized base URL plus the account name, so two accounts never share entries.
    public var server: String
    /// The Officer root (`home`, `shared`, …).
    public var root: String
    /// The remote path.
    public var path: String
    /// What is stored: ``Kind/body``, ``Kind/preview``, ``Kind/listing``, or an AI result such as `ai/ocr?lang=eng`.
    public var kind: String

    /// Common kinds of cached content.
    public enum Kind {
        /// The whole file.
        public static let body = "body"
        /// The first bytes, fetched to recognise a remote file.
        public static let preview = "preview"
        /// What a file is and holds (its facts as JSON), read from a few ranges of it.
        public static let facts = "facts"
        /// A folder's listing as JSON.
        public static let listing = "listing"
        /// A reduced image.
        public static let thumbnail = "thumbnail"
        /// The result of a remote AI action with its parameters, e.g. `ai/ocr?lang=eng`.
        public static func aiResult(action: String, parameters: [(String, String)] = []) -> String {
            let query = parameters.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
            return "ai/" + action + (query.isEmpty ? "" : "?" + query)
        }
    }

    /// Creates a key.
    public init(server: String, root: String, path: String, kind: String) {
        self.server = server
        self.root = root
        self.path = path
        self.kind = kind
    }

    /// `kind officer:root:/path @ server`.
    public var description: String { "\(kind) officer:\(root):\(path) @ \(server)" }

    /// The version of a file for which the server gives no ETag: its size and modification time.
    public static func version(size: Int64, modificationTime: Int64) -> String {
        "size=\(size);mtime=\(modificationTime)"
    }
}

/// Why the configuration file could not be read or written.
package enum ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Group or others may read it: a token there is not private.
    case tooOpen(path: String, mode: Int)
    /// Not valid JSON of the expected shape.
    case malformed(path: String, detail: String)
    /// The file or its folder could not be read or written.
    case io(path: String, message: String)
    /// Written by a newer build (its `version` is above the one this build knows): refused, and never overwritten.
    case newerFormat(path: String, found: Int, supported: Int)

    /// A one-line message.
    package var description: String {
        switch self {
        case .tooOpen(let path, let mode):
            "\(path): mode \(String(mode, radix: 8)) lets others read your token; run 'chmod 600 \(path)'"
        case .malformed(let path, let detail): "\(path): not a valid officer-files config: \(detail)"
        case .io(let path, let message): "\(path): \(message)"
        case .newerFormat(let path, let found, let supported):
            "\(path) was written by a newer officer-files (format \(found); this build reads up to \(supported)): upgrade officer-files; the file is left as it is"
        }
    }
}

import Foundation

extension FileFacts {
    /// ``mtime`` as a `Date`.
    public var modificationDate: Date { Date(timeIntervalSince1970: mtime) }
}

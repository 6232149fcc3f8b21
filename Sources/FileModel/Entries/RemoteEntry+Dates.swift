import Foundation

extension RemoteEntry {
    /// ``mtime`` as a `Date`, for an app's formatters and views.
    public var modificationDate: Date? { mtime.map { Date(timeIntervalSince1970: $0) } }
}

extension RemoteListing {
    /// ``listedAt`` as a `Date`: when the cached listing shown was made; nil for a fresh one.
    public var listedDate: Date? { listedAt.map { Date(timeIntervalSince1970: $0) } }
}

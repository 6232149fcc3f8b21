import Foundation

extension UploadResult {
    /// The local file sent (``path``) as a file URL.
    public var fileURL: URL { URL(fileURLWithPath: path) }
    /// ``storedModificationTime`` as a `Date`: the time the server keeps for the file, where it said.
    public var storedModificationDate: Date? { storedModificationTime.map { Date(timeIntervalSince1970: $0) } }
}

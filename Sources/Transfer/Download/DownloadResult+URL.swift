import Foundation

extension DownloadResult {
    /// The downloaded file (``path``) as a file URL.
    public var fileURL: URL { URL(fileURLWithPath: path) }
}

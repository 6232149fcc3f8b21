import Foundation
import Observation
import Officer

/// A folder screen's view model, as an app's SwiftUI view would bind to it: the rows of one folder, loaded a
/// page at a time with a cursor the app can keep, the file being opened with its progress, and the last error
/// as the user should read it. Only `import Officer`.
@MainActor @Observable
final class FolderScreen {
    /// The folder shown.
    let folder: Location
    /// The rows loaded so far, in name order.
    private(set) var rows: [RemoteEntry] = []
    /// Where the next page starts (kept across launches); nil once the folder is listed to its end.
    private(set) var cursor: String?
    /// True once every row is loaded.
    private(set) var isComplete = false
    /// The file being opened, with its progress.
    private(set) var opening: TransferModel?
    /// The last failure, as it is shown.
    private(set) var failure: String?

    @ObservationIgnored private let files: OfficerFiles
    @ObservationIgnored private let pageSize: Int

    init(files: OfficerFiles, folder: Location, pageSize: Int = 50, cursor: String? = nil) {
        self.files = files
        self.folder = folder
        self.pageSize = pageSize
        self.cursor = cursor
    }

    /// Loads the next page (the view calls it as the list nears its end).
    func loadMore() async {
        guard !isComplete else { return }
        do {
            for try await page in files.pages(of: folder, size: pageSize, after: cursor) {
                rows += page.entries
                cursor = page.cursor
                isComplete = page.cursor == nil
                break  // one page a call; leaving the loop stops the listing
            }
        } catch {
            failure = error.localizedDescription
        }
    }

    /// Opens a row: downloads it into `local` on this device with progress the view shows (at most `rate`
    /// bytes a second on a metered link); `cancel()` stops it, and opening it again continues where it stopped.
    func open(_ row: RemoteEntry, into local: URL, rate: Int64? = nil) -> TransferModel {
        var options = DownloadOptions()
        options.bandwidthLimit = rate
        let model = TransferModel(
            files.download(row.location, to: local.appendingPathComponent(row.name), options: options))
        opening = model
        return model
    }

    /// Uploads a camera photo into this folder, prepared as the Officer apps prepare photos (2048 px, JPEG 85, no
    /// GPS), and shows it as a row.
    func addPhoto(_ photo: URL) async -> PhotoUpload? {
        do {
            let outcome = try await files.upload(photos: [photo], to: folder).value.first
            if let failure = outcome?.failure { self.failure = failure.localizedDescription }
            if let location = outcome?.location, let entry = try? await files.stat(location) { rows.append(entry) }
            return outcome
        } catch {
            failure = error.localizedDescription
            return nil
        }
    }

    /// Sends images as chat attachments; the ids a message names them by.
    func attach(_ images: [URL]) async -> [String] {
        do {
            return try await files.attach(images).value.map(\.id)
        } catch {
            failure = error.localizedDescription
            return []
        }
    }
}

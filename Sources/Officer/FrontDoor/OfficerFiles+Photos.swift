import FileModel
import Foundation
import Preview
import Transfer

/// What became of one photo of ``OfficerFiles/upload(photos:preparing:to:overwrite:)``.
public struct PhotoUpload: Sendable {
    /// The photo as given.
    public var photo: URL
    /// Where it went (`IMG_1.heic` arrives as `IMG_1.jpg`), when it went.
    public var location: Location?
    /// The upload, when it went.
    public var result: UploadResult?
    /// Why it did not go (a damaged image, a name taken), naming the photo.
    public var failure: OfficerFilesError?
}

extension OfficerFiles {
    /// Uploads photos into `folder`, each prepared first as `preparing` says (the Officer apps': longest edge
    /// 2048 px, JPEG 85, metadata — GPS — stripped; HEIC as JPEG): one call, events for all. Every photo is
    /// prepared (on every core) before the first upload starts, so the events are one part per photo with its
    /// prepared size; a photo that cannot be prepared or sent is reported in its ``PhotoUpload`` and the others
    /// go on. Prepared copies live beside the cache and go once their upload is done, so a paused batch (the
    /// task cancelled) resumes with the same bytes when called again; failures and pauses name the photo, never
    /// its prepared copy.
    public func upload(
        photos: [URL], preparing options: ImagePreparationOptions = ImagePreparationOptions(), to folder: Location,
        overwrite: Bool = false
    ) -> FileOperation<[PhotoUpload]> {
        reported(
            folder,
            TransferOperation { report in
                try await self.reporting(folder) {
                    try await self.sendPhotos(photos, options: options, to: folder, overwrite: overwrite, report)
                }
            })
    }

    private func sendPhotos(
        _ photos: [URL], options: ImagePreparationOptions, to folder: Location, overwrite: Bool,
        _ report: @escaping @Sendable (TransferEvent) -> Void
    ) async throws -> [PhotoUpload] {
        let preparation = imagePreparation(options)
        let prepared = try await ParallelRunner.map(photos, width: ProcessInfo.processInfo.activeProcessorCount) {
            photo in
            Result { () throws -> UploadImagePreparation.Item in
                try LocalFiles.requireLocalFile(photo.path)
                return try preparation.prepare(photo.path).get()
            }
        }
        let sizes = prepared.map { outcome in
            (try? outcome.get()).flatMap {
                (try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? NSNumber)?.int64Value
            } ?? 0
        }
        report(.started(total: sizes.reduce(0, +), partSizes: sizes, resumedBytes: 0, method: .stream))
        var outcomes: [PhotoUpload] = []
        for (index, photo) in photos.enumerated() {
            var outcome = PhotoUpload(photo: photo)
            do {
                let item = try prepared[index].get()
                guard let target = folder.appending(item.name) else {
                    throw FrontDoorRefusal.invalidValue("\(folder): cannot take \(item.name)")
                }
                let operation = upload(path: item.path, to: target, overwrite: overwrite)
                // One part per photo: the upload's own parts (an S3 multipart upload has several) summed into it.
                let tracker = TransferTracker()
                for await event in operation {
                    let progress = tracker.apply(event)
                    if case .progress = event {
                        report(.progress(part: index, done: min(progress.doneBytes, sizes[index])))
                    }
                    if case .warning(let message) = event { report(.warning(message)) }
                }
                outcome.result = try await operation.value
                outcome.location = target
                if let temporary = item.temporary { unlink(temporary) }
                report(.progress(part: index, done: sizes[index]))
            } catch {
                // A refused token stops the batch as it is: every other photo would meet it too.
                if ErrorCategory.of(error) == .authentication { throw error.beneathReport }
                let named = PreparedFileError(
                    photo: photo.path, prepared: (try? prepared[index].get())?.path, underlying: error.beneathReport)
                // Stopped on purpose: the rest is not started; the paused one continues on the next call.
                if ErrorCategory.of(error) == .cancelled || Task.isCancelled { throw named }
                // Any other failure: the copy goes too (a rerun prepares the same bytes again).
                if let temporary = (try? prepared[index].get())?.temporary { unlink(temporary) }
                outcome.failure = OfficerFilesError(named, terms: locationNames, about: photo.path)
                report(.warning(outcome.failure!.message))
            }
            outcomes.append(outcome)
        }
        return outcomes
    }
}

/// A failure of a photo's prepared copy, told as the photo's: its message names the photo where the layer
/// beneath named the copy in the cache.
struct PreparedFileError: Error, Sendable, CategorizedError, CustomStringConvertible {
    /// The photo as given.
    var photo: String
    /// Its prepared copy, when one was made.
    var prepared: String?
    /// What failed.
    var underlying: any Error

    /// The underlying error's category.
    var category: ErrorCategory { ErrorCategory.of(underlying) }

    /// The failure told of the photo (its prepared copy named beside it), in the layer's own words.
    var description: String {
        let copy = prepared.map { " (prepared as \($0))" } ?? ""
        return "\(photo)\(copy): \(underlying)"
    }
}

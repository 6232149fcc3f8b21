import FileModel
import Foundation
import Preview
import Transfer

/// How files are made ready as chat attachments.
public struct AttachmentOptions: Sendable, Equatable {
    /// Prepare images as a chat sends them (the default): longest edge ``maxEdge``, metadata (GPS) stripped,
    /// JPEG at ``quality`` — a PNG (a screenshot: text and sharp edges) stays PNG. Off, files go as they are.
    public var prepareImages = true
    /// Longest edge of a prepared image, in pixels; smaller images are never upsized.
    public var maxEdge = 2048
    /// JPEG quality of a prepared image, 1–100.
    public var quality = 85
    /// At most this many bytes per second in all; nil: as fast as the link allows.
    public var bandwidthLimit: Int64?

    /// The seed's settings: 2048 px, JPEG 85, PNG kept for screenshots.
    public init() {}
}

extension OfficerFiles {
    /// Sends local files as chat attachments to an Officer server (`remote`: a named Officer remote; nil: this
    /// front door's server) and returns what it stored, in the order given: a chat message then names them by
    /// their ids (`attachmentIds`). Images are prepared first (``AttachmentOptions``), all before anything is
    /// sent, so a damaged image fails the call with nothing stored; the prepared copies are removed however the
    /// call ends. Progress: one part per file. An attachment cannot be resumed: an interrupted call sends again.
    public func attach(_ files: [URL], on remote: String? = nil, options: AttachmentOptions = AttachmentOptions())
        -> FileOperation<[Attachment]>
    {
        reported(
            nil,
            TransferOperation { report in
                try await self.reporting(nil) {
                    try await self.sendAttachments(files, on: remote, options: options, report)
                }
            })
    }

    private func sendAttachments(
        _ files: [URL], on remote: String?, options: AttachmentOptions,
        _ report: @escaping @Sendable (TransferEvent) -> Void
    ) async throws -> [Attachment] {
        for file in files { try LocalFiles.requireLocalFile(file.path) }
        let client = try self.server(named: remote).client
        let prepared = try await self.attachmentCopies(of: files.map(\.path), options: options)
        defer { for item in prepared { if let temporary = item.temporary { unlink(temporary) } } }
        let sizes = try prepared.map { item in
            Int64(try FileManager.default.attributesOfItem(atPath: item.path)[.size] as? Int ?? 0)
        }
        report(.started(total: sizes.reduce(0, +), partSizes: sizes, resumedBytes: 0, method: .multipart))
        var stored: [Attachment] = []
        for (index, item) in prepared.enumerated() {
            let type = TusUploader.uploadedType(of: item.path) ?? "application/octet-stream"
            let size = sizes[index]
            do {
                stored.append(
                    try await client.uploadAttachment(
                        file: item.path, name: item.name, contentType: type,
                        bandwidthLimit: options.bandwidthLimit,
                        onProgress: { report(.progress(part: index, done: min($0, size))) }))
            } catch {
                // A refused token is the server's, not the file's: thrown as it is, with its way back (sign in).
                if ErrorCategory.of(error) == .authentication { throw error }
                // Named as the caller wrote it (a relative path stays relative).
                throw AttachmentError(file: files[index].relativePath, sent: stored, underlying: error)
            }
            report(.progress(part: index, done: size))
        }
        return stored
    }

    /// Each file as it goes up: images prepared (on every core), anything else as it is.
    private func attachmentCopies(of locals: [String], options: AttachmentOptions) async throws
        -> [UploadImagePreparation.Item]
    {
        guard options.prepareImages else {
            return locals.map { UploadImagePreparation.Item(path: $0, name: ($0 as NSString).lastPathComponent) }
        }
        var settings = ImagePreparationOptions()
        settings.maxEdge = options.maxEdge
        settings.quality = options.quality
        settings.format = .jpeg
        let photos = imagePreparation(settings)
        settings.format = .keep
        let screenshots = imagePreparation(settings)
        let outcomes = try await ParallelRunner.map(locals, width: ProcessInfo.processInfo.activeProcessorCount) {
            local in
            let isPNG = (local as NSString).pathExtension.lowercased() == "png"
            return (isPNG ? screenshots : photos).prepare(local)
        }
        var items: [UploadImagePreparation.Item] = []
        for outcome in outcomes {
            switch outcome {
            case .success(let item): items.append(item)
            case .failure(let error):
                // Nothing goes: every copy made is removed.
                for case .success(let item) in outcomes { if let temporary = item.temporary { unlink(temporary) } }
                throw error
            }
        }
        return items
    }
}

/// An attachment that could not be sent: which file, what stopped it, and the attachments stored before it
/// (their ids are valid; a message may still name them).
package struct AttachmentError: Error, Sendable, CustomStringConvertible, CategorizedError {
    /// The local file that was not sent.
    package var file: String
    /// The attachments stored before it.
    package var sent: [Attachment]
    /// What stopped it.
    package var underlying: any Error

    /// One line naming the file.
    package var description: String {
        let reason = "\(underlying)"
        let kept = sent.isEmpty ? "" : " (\(sent.count) sent before it)"
        return reason.hasPrefix(file) ? reason + kept : "\(file): \(reason)\(kept)"
    }

    /// The underlying error's category.
    package var category: ErrorCategory { ErrorCategory.of(underlying) }
}

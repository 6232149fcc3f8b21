import FileModel
import Foundation
import HTTP
import Transfer

/// Where and how one upload goes, beyond the file and the destination.
package struct UploadRequest: Sendable {
    /// The destination names a folder (the user wrote a trailing slash): it must be one.
    package var namesFolder = false
    /// Missing folders are created instead of refused (`mkdir -p`).
    package var createMissing = false
    /// An existing file of the same name is replaced; without it, that is a conflict.
    package var overwrite = false
    /// Chunks, parts, checksums, rate, metadata.
    package var options = UploadOptions()

    /// Defaults: into existing folders only, never over a file.
    package init() {}
}

/// Where the files of one upload command go.
package enum UploadDestination: Sendable, Equatable {
    /// Any tus 1.0 server's creation URL: files go under their own names, without the token.
    case tus(url: String)
    /// An Officer destination, placed as ``OfficerServer/uploadPlacement(of:several:request:)`` decided.
    case officer(UploadPlacement)
}

extension OfficerServer {
    /// Uploads a local file to an Officer destination, placed as `cp` places copies: an existing folder takes it
    /// in under its own name; otherwise it goes under the destination's name into an existing parent
    /// (``UploadRequest/createMissing`` creates what is missing). tus, resumable from the journal; the file's
    /// MIME type (libmagic) and modification time go along; a cancelled upload pauses and the same call
    /// continues it.
    package func upload(
        _ local: String, to destination: RemotePath, request: UploadRequest = UploadRequest()
    ) -> TransferOperation<UploadResult> {
        TransferOperation { report in
            try LocalFiles.requireLocalFile(local)
            let placement = try await self.client.uploadPlacement(
                destination: destination, namesFolder: request.namesFolder, several: false,
                createMissing: request.createMissing)
            let target = try self.uploadTarget(
                for: local, destination: .officer(placement), overwrite: request.overwrite)
            return try await self.send(local, to: target, options: request.options, report: report)
        }
    }

    /// Uploads a stream of unknown length (a pipe: ``DescriptorByteStream``) to an Officer file, over tus with a
    /// deferred length, in checksummed chunks; the file appears on the server whole or not at all. The
    /// destination names the file (an existing folder is refused: a stream has no name of its own); its
    /// modification time is the time the upload ends. A stream is read once: cancelling ends the upload and
    /// removes it from the server. The result's `sha256` is of the bytes sent.
    package func upload(
        stream: some AsyncSequence<Data, any Error> & Sendable, label: String = "-", to destination: RemotePath,
        request: UploadRequest = UploadRequest()
    ) -> TransferOperation<UploadResult> {
        TransferOperation { report in
            if self.isOffline { throw FrontDoorRefusal.needsNetwork("upload to \(destination)") }
            let client = try self.client
            let placement = try await client.uploadPlacement(
                destination: destination, namesFolder: false, several: false, createMissing: request.createMissing)
            guard case .asFile(let file) = placement else { throw FrontDoorRefusal.isAFolder(destination) }
            let target = try client.uploadTarget(
                name: file.name, into: file.parent, mtime: Date().timeIntervalSince1970, overwrite: request.overwrite)
            do {
                return try await self.uploader().upload(
                    stream: stream, label: label, to: target, options: request.options
                ) { report($0) }
            } catch UploadError.server(_, 409, _) {
                throw FrontDoorRefusal.exists(file.description)
            }
        }
    }

    /// Where the files of one upload to `path` go, placed by ``upload(_:to:request:)``'s rule, with `several`
    /// files needing a folder. Folders are created only with ``UploadRequest/createMissing``, after every name
    /// to create is checked.
    package func uploadPlacement(of path: RemotePath, several: Bool, request: UploadRequest) async throws
        -> UploadPlacement
    {
        // The names to create are checked before any folder is made (a bad last name left the folders behind).
        if request.createMissing { try Location.requireStorableNames(.officer(path), all: true) }
        return try await client.uploadPlacement(
            destination: path, namesFolder: request.namesFolder, several: several,
            createMissing: request.createMissing)
    }

    /// The tus target of `local` at a destination: under `name` (default: the file's own name) into a folder, or
    /// the file name a single-file placement gives; the file's modification time goes along. A tus server gets
    /// no token.
    package func uploadTarget(
        for local: String, name: String? = nil, destination: UploadDestination, overwrite: Bool
    ) throws -> UploadTarget {
        let mtime = LocalFiles.modificationTime(of: local)
        let ownName = name ?? (local as NSString).lastPathComponent
        switch destination {
        case .tus(let url):
            return UploadTarget.tus(url: url, fileName: ownName, mtime: mtime)
        case .officer(.intoFolder(let folder)):
            return try client.uploadTarget(name: ownName, into: folder, mtime: mtime, overwrite: overwrite)
        case .officer(.asFile(let file)):
            return try client.uploadTarget(name: file.name, into: file.parent, mtime: mtime, overwrite: overwrite)
        }
    }

    /// Uploads `local` to a target made by ``uploadTarget(for:name:destination:overwrite:)``: tus, resumable from
    /// the journal, paused by cancellation. On an Officer server a 409 at creation means the file exists
    /// (``FrontDoorRefusal/exists(_:)``); another tus server's 409 stays its own.
    package func upload(_ local: String, to target: UploadTarget, options: UploadOptions = UploadOptions())
        -> TransferOperation<UploadResult>
    {
        TransferOperation { report in
            try LocalFiles.requireLocalFile(local)
            return try await self.send(local, to: target, options: options, report: report)
        }
    }

    private func send(
        _ local: String, to target: UploadTarget, options: UploadOptions,
        report: @escaping @Sendable (TransferEvent) -> Void
    ) async throws -> UploadResult {
        let isOfficer =
            !target.label.lowercased().hasPrefix("http://") && !target.label.lowercased().hasPrefix("https://")
        do {
            let result = try await uploader().upload(file: local, to: target, options: options) { report($0) }
            if isOfficer {
                let mtime =
                    (try? FileManager.default.attributesOfItem(atPath: local)[.modificationDate] as? Date)?
                    .timeIntervalSince1970 ?? 0
                noteUploaded(result, to: target, localMtime: mtime)
                // Remembered with the server's other offers (a day): a seed server is said not to resume once.
                if result.method == .multipart || result.method == .tus {
                    (try? client)?.offers.learn(.tus, offered: result.method == .tus)
                }
            }
            return result
        } catch UploadError.server(_, 409, _) where isOfficer {
            throw FrontDoorRefusal.exists(target.label)
        } catch  where isOfficer && ErrorCategory.of(error) == .authentication {
            // A tus or multipart request's 401 names no server and no way back: told as the server's refusal.
            throw (try? client)?.signInNeeded(after: error) ?? error
        }
    }

    /// The uploader every upload of this front door uses: the journal, and file types named by libmagic.
    package func uploader() throws -> TusUploader {
        // A server remembered without tus was told of it when that was learnt: not again on every run.
        if let client = try? client, client.offers.offers(.tus) == false {
            uploadEndpoints.toldNotResumable[client.url("/api/file-browser/tus")] = true
        }
        return TusUploader.describingFiles(
            http: http, journal: try journal, server: try? client, endpoints: uploadEndpoints)
    }

}

import FileModel
import Foundation
import Preview
import Transfer

/// A plain http(s) address as a ``Remote``: it can be read, nothing else (the token never goes to it).
struct WebAddressRemote: Remote {
    let files: OfficerFiles

    var kind: String { "a web address" }

    func features() async -> RemoteFeatures { [.ranges] }

    func url(_ location: Location) throws -> String {
        guard case .url(let url) = location else {
            throw FrontDoorRefusal.invalidValue("\(location): not a web address")
        }
        return url
    }

    /// A web address takes uploads as a tus server's creation URL: each file under its own name, no token.
    func uploadPlan(
        of locals: [String], to destination: Location, request: UploadRequest, queueing: Bool,
        on front: OfficerFiles
    ) async throws -> UploadPlan {
        UploadPlan(
            files: files, route: .targets(.tus(url: try url(destination))), overwrite: request.overwrite,
            createMissing: request.createMissing, folderToMake: nil)
    }

    func download(_ location: Location, to local: String, options: DownloadOptions) -> TransferOperation<DownloadResult>
    {
        do {
            return files.download(url: try url(location), to: local, options: options)
        } catch {
            return TransferOperation { _ in throw error }
        }
    }

    func read(_ location: Location, to fileDescriptor: Int32, outputName: String, bandwidthLimit: Int64?) async throws
        -> Int64
    {
        try await files.read(url: try url(location), to: fileDescriptor, bandwidthLimit: bandwidthLimit).bytes
    }

    func archiveBytes(_ location: Location) async throws -> ArchiveBytes {
        .ranged(try await files.rangedFile(url: try url(location)))
    }
}

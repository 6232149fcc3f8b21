import FileModel
import Foundation
import Transfer

/// Where the files of one upload go, decided once for the whole batch (one request, not one a file): into a
/// folder under their names, or one file at a name. An Officer server or a tus creation URL gets each file's
/// target without a request; any other remote goes through its own upload; a server that cannot be reached while
/// the changes are to be kept gets none, and every file is kept as it would land.
package struct UploadPlan: Sendable {
    package enum Route: Sendable {
        /// An Officer server or a tus URL, placed (and folders made) already; `server` sends each file.
        case targets(UploadDestination, on: OfficerServer)
        /// Any other remote, each file into the folder or at the name.
        case remote(Location, intoFolder: Bool)
        /// Changes to keep: the server could not be reached.
        case kept(Location, intoFolder: Bool)
    }

    let files: OfficerFiles
    let route: Route
    let overwrite: Bool
    let createMissing: Bool
    /// The server could not be reached (or the front door is offline): each upload is to be kept without
    /// trying it.
    package var queueAtOnce: Bool { if case .kept = route { true } else { false } }
    /// A folder to make before the first file (with the changes kept, or on a remote whose upload makes none).
    package let folderToMake: Location?

    /// The one name a single file is stored under, nil when the files go into a folder (under their own names).
    package var fileName: String? {
        switch route {
        case .targets(.officer(.asFile(let file)), _): file.name
        case .targets: nil
        case .remote(let location, let intoFolder), .kept(let location, let intoFolder):
            intoFolder ? nil : location.name
        }
    }

    /// Where `local` lands (under `name`, default its own), as the user would write it.
    package func landing(of local: String, name: String? = nil) -> Location {
        let name = name ?? (local as NSString).lastPathComponent
        switch route {
        case .targets(.officer(.intoFolder(let folder)), _):
            return (try? folder.appending(name)).map { .officer($0) } ?? .officer(folder)
        case .targets(.officer(.asFile(let file)), _): return .officer(file)
        case .targets(.tus(let url), _): return .url(url)
        case .remote(let location, let intoFolder), .kept(let location, let intoFolder):
            return intoFolder ? location.appending(name) ?? location : location
        }
    }

    /// The change one upload makes, as ``OfficerFiles/makeOrQueue(_:)`` keeps it.
    package func change(for local: String) -> FileChange {
        .upload(URL(fileURLWithPath: local), to: landing(of: local), overwrite: overwrite)
    }

    /// The kept form of one upload: sent as the file is when the queue is sent, making the folders missing on
    /// the way when the upload was to.
    package func queuedWrite(for local: String) throws -> QueuedWrite {
        var write = try files.queuedWrite(for: change(for: local))
        write.parents = createMissing
        return write
    }

    /// Uploads `local` (stored under `name`, default its own) where the plan says.
    package func upload(_ local: String, name: String? = nil, options: UploadOptions) -> TransferOperation<UploadResult>
    {
        switch route {
        case .targets(let destination, let server):
            do {
                let target = try server.uploadTarget(
                    for: local, name: name, destination: destination, overwrite: overwrite)
                let operation = server.upload(local, to: target, options: options)
                guard case .tus(let url) = destination else { return operation }
                return TransferOperation { report in
                    for await event in operation { report(event) }
                    do {
                        return try await operation.value
                    } catch UploadError.server(_, 409, let reason) {
                        throw FrontDoorRefusal.tusRefused(local: local, url: url, reason: reason)
                    }
                }
            } catch {
                return TransferOperation { _ in throw error }
            }
        case .remote, .kept:
            return files.upload(path: local, to: landing(of: local, name: name), overwrite: overwrite, options: options)
        }
    }
}

extension OfficerFiles {
    /// Decides where `locals` go at `destination`, as cp(1) places copies: an existing folder (or one written with
    /// `/`) takes them under their names, several files need a folder, else the one file goes at that name.
    /// `createMissing` makes the folders missing on the way; `queueing`: the changes are to be kept when the
    /// server cannot be reached, so that is planned instead of failing. A remote that places a batch itself says
    /// where (``Remote/uploadRoute(of:to:request:queueing:)``); any other is placed as a copy is, each file through
    /// the remote's upload.
    package func planUpload(
        of locals: [String], to destination: Location, request: UploadRequest, queueing: Bool
    ) async throws -> UploadPlan {
        // Every file is checked before anything goes (uploads check again, as they open each).
        for local in locals { try LocalFiles.requireLocalFile(local) }
        var request = request
        request.namesFolder = request.namesFolder || destination.namesFolder
        let remote = try remote(for: destination)
        if let route = try await remote.uploadRoute(of: locals, to: destination, request: request, queueing: queueing) {
            return UploadPlan(
                files: self, route: route, overwrite: request.overwrite, createMissing: request.createMissing,
                folderToMake: nil)
        }
        if request.options.parts > 1 || request.options.chunkSize != nil {
            throw FrontDoorRefusal.invalidValue(
                "\(destination): chunk sizes and parallel parts are for tus uploads (an Officer server or a tus URL)")
        }
        let plan = try await planRelocation(
            of: locals.map(Location.local), to: destination, copy: false, recursive: true,
            parents: request.createMissing, queueing: false)
        return UploadPlan(
            files: self, route: .remote(destination, intoFolder: plan.intoFolder), overwrite: request.overwrite,
            createMissing: request.createMissing, folderToMake: plan.folderToMake)
    }
}

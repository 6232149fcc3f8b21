import FileModel
import Foundation
import HTTP
import Platform
import Transfer

/// This machine's disk as a side of a sync, so one engine syncs a local folder with a remote either way (and two
/// local folders): listed by ``LocalTreeWalker``; written through ``LocalSide``'s rules (a temp file beside the
/// target, replaced only if it is still what the plan saw, never through a symbolic link, never outside the
/// root); read directly when sent, after the settle rule and image preparation where the options ask for them.
extension LocalDiskRemote {
    /// The folder (``SyncRoot`` standardized it).
    func folder(_ root: SyncRoot) -> String { (try? path(root.location)) ?? "/" }

    /// The file of `path` below the root.
    func file(_ path: SyncPath, in root: SyncRoot) -> String { folder(root) + "/" + path.description }

    func syncDescription(_ root: SyncRoot) -> String { folder(root) }

    /// The local disk: written in place, read in place.
    var isLocalDisk: Bool { true }

    /// The folder's tree with the options' listing rules (links followed or not, the filter, prepared images'
    /// names); `onProblem` hears what was skipped. A name that is not UTF-8 is refused where it would be sent.
    func syncListing(
        _ root: SyncRoot, missingRootIsEmpty: Bool, onProblem: @escaping @Sendable (SyncPath, String, Bool) -> Void
    ) -> any SyncRemoteIterator {
        let options = root.options
        let walker = LocalTreeWalker(
            root: folder(root), followSymlinks: options.followSymlinks, filter: options.filter,
            rename: root.isSource ? options.imagePreparation?.uploadedName : nil, onProblem: onProblem)
        walker.missingRootIsEmpty = missingRootIsEmpty
        walker.refusesNamesNotUTF8 = root.isSource
        return LocalTreeIterator(walker: walker)
    }

    /// Checks the local folder (and that it exists where it must).
    func checkSyncRoot(_ root: SyncRoot, mustExist: Bool) async throws {
        let folder = folder(root)
        let info = FileStatus.of(folder)
        if let info, info.st_mode & S_IFMT != S_IFDIR { throw SyncRootError.notAFolder(path: folder) }
        if info == nil, mustExist { throw SyncRootError.missing(path: folder, onThisMachine: true) }
    }

    /// Makes a local folder.
    func makeSyncFolder(_ path: SyncPath, in root: SyncRoot) async throws {
        if path == .root {
            try FileManager.default.createDirectory(atPath: folder(root), withIntermediateDirectories: true)
        } else {
            try LocalSide.makeDirectory(path, in: folder(root))
        }
    }

    /// The time a file here gets when given the item's (a clamped time then compares equal on the next run).
    func storable(_ item: SyncItem, in root: SyncRoot) -> SyncItem {
        var item = item
        if !item.isDirectory { item.mtime = LocalSide.storableTime(item.mtime, in: folder(root)) }
        return item
    }

    /// The file as it is named here (a prepared image is listed under the name it is sent as).
    private func sourceFile(_ item: SyncItem, in root: SyncRoot) -> (relative: String, path: String) {
        let parent = item.path.components.dropLast().map { "/" + $0 }.joined()
        let relative = parent + "/" + (item.sourceName ?? item.name)
        return (relative, folder(root) + relative)
    }

    /// The file itself, checked to have settled and prepared where asked: a prepared copy goes once sent.
    func ownFileToSend(_ item: SyncItem, in root: SyncRoot) async throws -> SyncSentFile? {
        let (relative, local) = sourceFile(item, in: root)
        // Checked as late as possible: a file a writer started on after the listing waits too.
        if root.isSource, let settle = root.options.settle,
            !settle.isSettled(local, listedSize: item.size, mtime: item.mtime)
        {
            throw SyncDeferral(localPath: String(relative.dropFirst()))
        }
        if root.isSource, let imagePreparation = root.options.imagePreparation, item.sourceName != nil {
            // The preparer may send the original itself (already small, or damaged under best effort): only a
            // prepared copy is removed after the send, never the user's file.
            let prepared = try await imagePreparation.prepare(local)
            return SyncSentFile(path: prepared, wasFetched: false, isCopy: prepared != local)
        }
        return SyncSentFile(path: local, wasFetched: false, isCopy: false)
    }

    /// An image to prepare is prepared (and the copy dropped): a damaged one fails the plan as it would the send.
    func checkSendable(_ item: SyncItem, in root: SyncRoot) async throws {
        guard root.isSource, let imagePreparation = root.options.imagePreparation, item.sourceName != nil else {
            return
        }
        let local = sourceFile(item, in: root).path
        let prepared = try await imagePreparation.prepare(local)
        if prepared != local { unlink(prepared) }
    }

    /// Fetched from the source into a temp file beside the target, which replaces the target only if it is
    /// still what the plan saw.
    func receiveInPlace(
        _ item: SyncItem, replacing seen: SyncItem?, from source: any SyncRemote, in root: SyncRoot,
        onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws -> SyncReceived? {
        let fetched = try await LocalSide.receive(
            item, replacing: seen, in: folder(root), remote: source, onProgress: onProgress)
        return SyncReceived(bytes: item.size, checked: fetched.checked)
    }

    /// Copies a local file in (a sync between two local folders).
    func syncUpload(
        _ local: String, to path: SyncPath, in root: SyncRoot, mtime: Double,
        onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws {
        let target = file(path, in: root)
        try LocalSide.checkParents(of: path, in: folder(root))
        try LocalSide.copy(local, to: target, onProgress: onProgress)
        try LocalSide.setModificationTime(target, to: mtime)
    }

    /// Copies a file out (the other side of a sync between two local folders).
    func syncDownload(
        _ item: SyncItem, in root: SyncRoot, to local: String,
        onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws -> SyncFetched {
        try LocalSide.copy(file(item.path, in: root), to: local, onProgress: onProgress)
        return SyncFetched()
    }

    /// Removes a local file or folder.
    func syncDelete(_ path: SyncPath, isDirectory: Bool, in root: SyncRoot) async throws {
        try LocalSide.delete(
            SyncItem(path: path, kind: isDirectory ? .directory : .file, size: 0, mtime: 0), in: folder(root))
    }

    /// Hashed here, with the other side's function (SHA-256 when it has none).
    func syncChecksum(_ path: SyncPath, in root: SyncRoot, like other: SyncChecksum?) async throws -> SyncChecksum {
        try SyncChecksum.of(file: file(path, in: root), algorithm: other?.algorithm ?? .sha256)
    }

    /// Sets a local file's time.
    func setSyncTime(_ path: SyncPath, in root: SyncRoot, to mtime: Double) async throws {
        try LocalSide.setModificationTime(file(path, in: root), to: mtime)
    }
}

/// The walker as a listing: it never fails; its problems go to the walker's callback, its refused names come as such.
private actor LocalTreeIterator: SyncRemoteIterator {
    private let walker: LocalTreeWalker

    init(walker: LocalTreeWalker) { self.walker = walker }

    func next() async throws -> Result<SyncItem, SyncNameError>? { walker.next() }
}

import FileModel
import Foundation
import HTTP
import Transfer

/// The local disk as a side of a sync, so one engine syncs a local folder with a remote either way (and two
/// local folders): listed by ``LocalTreeWalker``; written through ``LocalSide``'s rules (a temp file beside the
/// target, replaced only if it is still what the plan saw, never through a symbolic link, never outside the
/// root); read directly when sent, after the settle rule and image preparation where the options ask for them.
package struct LocalSyncRemote: SyncRemote {
    /// The folder, standardized.
    package let root: String
    /// Follows symbolic links instead of skipping them.
    let followSymlinks: Bool
    /// Which paths take part (the walker does not enter excluded folders).
    let filter: SyncFilter
    /// As a source: images sent prepared under another name.
    let imagePreparation: SyncImagePreparation?
    /// As a source: files that have not settled are deferred.
    let settle: SettleRule?
    /// The side files are sent from: a name it cannot send is a failure, not a warning.
    let isSource: Bool

    /// The local folder `root` with the options' listing rules; as a source also their image preparation and
    /// settle rule.
    package init(root: String, options: SyncOptions, asSource: Bool) {
        self.root = URL(fileURLWithPath: root).standardizedFileURL.path
        self.followSymlinks = options.followSymlinks
        self.filter = options.filter
        self.imagePreparation = asSource ? options.imagePreparation : nil
        self.settle = asSource ? options.settle : nil
        isSource = asSource
    }

    /// The folder's path.
    package var description: String { root }
    /// The local disk.
    package var isLocalDisk: Bool { true }

    /// The folder's tree.
    package func makeIterator(missingRootIsEmpty: Bool) -> any SyncRemoteIterator {
        makeIterator(missingRootIsEmpty: missingRootIsEmpty) { _, _, _ in }
    }

    /// The folder's tree; `onProblem` hears what was skipped.
    package func makeIterator(missingRootIsEmpty: Bool, onProblem: @escaping @Sendable (SyncPath, String, Bool) -> Void)
        -> any SyncRemoteIterator
    {
        let walker = LocalTreeWalker(
            root: root, followSymlinks: followSymlinks, filter: filter, rename: imagePreparation?.uploadedName,
            onProblem: onProblem)
        walker.missingRootIsEmpty = missingRootIsEmpty
        walker.refusesNamesNotUTF8 = isSource
        return LocalTreeIterator(walker: walker)
    }

    /// Checks the local folder (and that it exists where it must).
    package func checkRoot(mustExist: Bool) async throws {
        var info = stat()
        let found = stat(root, &info) == 0
        if found, info.st_mode & S_IFMT != S_IFDIR { throw SyncRootError.notAFolder(path: root) }
        if !found, mustExist { throw SyncRootError.missing(path: root) }
    }

    /// Makes a local folder.
    package func makeDirectory(_ path: SyncPath) async throws {
        if path == .root {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        } else {
            try LocalSide.makeDirectory(path, in: root)
        }
    }

    /// The time a file here gets when given the item's (a clamped time then compares equal on the next run).
    package func storable(_ item: SyncItem) -> SyncItem {
        var item = item
        if !item.isDirectory { item.mtime = LocalSide.storableTime(item.mtime, in: root) }
        return item
    }

    /// The file itself, checked to have settled and prepared where asked: a prepared copy goes once sent.
    package func fileToSend(_ item: SyncItem, staging: String, onProgress: @escaping @Sendable (Int64) -> Void)
        async throws -> SyncSentFile
    {
        let parent = item.path.components.dropLast().map { "/" + $0 }.joined()
        let relative = parent + "/" + (item.sourceName ?? item.name)
        let local = root + relative
        // Checked as late as possible: a file a writer started on after the listing waits too.
        if let settle, !settle.isSettled(local, listedSize: item.size, mtime: item.mtime) {
            throw SyncDeferral(localPath: String(relative.dropFirst()))
        }
        if let imagePreparation, item.sourceName != nil {
            // The preparer may send the original itself (already small, or damaged under best effort): only a
            // prepared copy is removed after the send, never the user's file.
            let prepared = try await imagePreparation.prepare(local)
            return SyncSentFile(path: prepared, wasFetched: false, isCopy: prepared != local)
        }
        return SyncSentFile(path: local, wasFetched: false, isCopy: false)
    }

    /// An image to prepare is prepared (and the copy dropped): a damaged one fails the plan as it would the send.
    package func checkSendable(_ item: SyncItem) async throws {
        guard let imagePreparation, item.sourceName != nil else { return }
        let parent = item.path.components.dropLast().map { "/" + $0 }.joined()
        let local = root + parent + "/" + (item.sourceName ?? item.name)
        let prepared = try await imagePreparation.prepare(local)
        if prepared != local { unlink(prepared) }
    }

    /// Fetched from the source into a temp file beside the target, which replaces the target only if it is
    /// still what the plan saw.
    package func receive(
        _ item: SyncItem, replacing seen: SyncItem?, from source: any SyncRemote, staging: String,
        onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws -> SyncReceived {
        let fetched = try await LocalSide.receive(
            item, replacing: seen, in: root, remote: source, onProgress: onProgress)
        return SyncReceived(bytes: item.size, checked: fetched.checked)
    }

    /// Copies a local file in (a sync between two local folders).
    package func upload(
        _ localFile: String, to path: SyncPath, mtime: Double, onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws {
        let target = root + "/" + path.description
        try LocalSide.checkParents(of: path, in: root)
        try LocalSide.copy(localFile, to: target, onProgress: onProgress)
        try LocalSide.setModificationTime(target, to: mtime)
    }

    /// Copies a file out (the other side of a sync between two local folders).
    package func download(
        _ path: SyncPath, size: Int64, to localFile: String, onProgress: @escaping @Sendable (Int64) -> Void
    ) async throws -> SyncFetched {
        try LocalSide.copy(root + "/" + path.description, to: localFile, onProgress: onProgress)
        return SyncFetched()
    }

    /// Removes a local file or folder.
    package func delete(_ path: SyncPath, isDirectory: Bool) async throws {
        try LocalSide.delete(SyncItem(path: path, kind: isDirectory ? .directory : .file, size: 0, mtime: 0), in: root)
    }

    /// A local file's SHA-256.
    package func sha256(_ path: SyncPath) async throws -> String {
        try SyncChecksum.of(file: root + "/" + path.description, algorithm: .sha256).hex
    }

    /// Hashed here, with the other side's function.
    package func checksum(_ path: SyncPath, like other: SyncChecksum?) async throws -> SyncChecksum {
        try SyncChecksum.of(file: root + "/" + path.description, algorithm: other?.algorithm ?? .sha256)
    }

    /// Sets a local file's time.
    package func setModificationTime(_ path: SyncPath, to mtime: Double) async throws {
        try LocalSide.setModificationTime(root + "/" + path.description, to: mtime)
    }
}

/// The walker as a listing: it never fails; its problems go to the walker's callback, its refused names come as such.
private actor LocalTreeIterator: SyncRemoteIterator {
    private let walker: LocalTreeWalker

    init(walker: LocalTreeWalker) { self.walker = walker }

    func next() async throws -> Result<SyncItem, SyncNameError>? { walker.next() }
}

import Platform

#if os(Linux)
    import FileModel
    import Foundation
    import HTTP
    import Transfer

    /// The work of one watch: a catch-up `copy`, then every file that settles goes up, while the server is away
    /// with a backoff, never a storm. Runs in one task: its state needs no lock.
    final class FolderUploadWatch {
        /// Two file times are equal to the nanosecond.
        static func same(_ a: timespec, _ b: timespec) -> Bool { a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec }

        private struct Pending {
            var size: Int64
            var mtime: timespec
            var changedAt: Double
            var open: Bool
        }

        private enum Input {
            case change(FolderChange)
            case tick
        }

        private let files: OfficerFiles
        /// The server of `remote`, which every file goes to.
        private let server: OfficerServer
        private let root: String
        private let remote: RemotePath
        private let options: WatchOptions
        private let report: @Sendable (WatchEvent) -> Void
        private var pending: [String: Pending] = [:]
        private var knownFolders: Set<String> = []
        private var retryAt = 0.0
        private var backoff = 0.0
        private var needsCatchUp = true
        private var timer: (deadline: Double, task: Task<Void, Never>)?
        /// Settle times, backoff and the timer run on the front door's clock (a test's manual one).
        private let clock: any Clock<Duration>
        private let reading: ClockReading

        init(
            files: OfficerFiles, server: OfficerServer, root: String, remote: RemotePath, options: WatchOptions,
            report: @escaping @Sendable (WatchEvent) -> Void
        ) {
            self.files = files
            self.server = server
            self.root = root
            self.remote = remote
            self.options = options
            self.report = report
            let clock = files.configuration.http.clock
            self.clock = clock
            reading = ClockReading(clock)
        }

        /// Seconds on the watch's clock.
        private func now() -> Double { reading.seconds }

        func run(_ watcher: FolderWatcher) async throws {
            let (inputs, feed) = AsyncStream.makeStream(of: Input.self)
            let forward = Task {
                for await change in watcher.changes { feed.yield(.change(change)) }
                feed.finish()
            }
            defer {
                forward.cancel()
                timer?.task.cancel()
            }
            // The watches are in place before the catch-up starts: nothing written meanwhile is missed.
            try await catchUpWhileReachable()
            var iterator = inputs.makeAsyncIterator()
            while true {
                schedule(feed)
                guard let input = await iterator.next() else { break }
                try Task.checkCancellation()
                switch input {
                case .change(let change): handle(change)
                case .tick:
                    timer = nil
                    if needsCatchUp {
                        try await catchUpWhileReachable()
                    } else {
                        try await uploadSettled()
                    }
                }
            }
            try Task.checkCancellation()
        }

        // MARK: Changes

        private func handle(_ change: FolderChange) {
            switch change {
            case .file(let path): look(at: path, open: true)
            case .closed(let path), .found(let path): look(at: path, open: false)
            case .removed(let path):
                pending[path] = nil
                let prefix = path + "/"
                for key in pending.keys where key.hasPrefix(prefix) { pending[key] = nil }
            case .folder(let path): scan(path)
            case .overflow: needsCatchUp = true
            }
        }

        private func relative(_ path: String) -> [String]? {
            guard path.hasPrefix(root + "/") else { return nil }
            return path.dropFirst(root.count + 1).split(separator: "/").map(String.init)
        }

        private func included(_ path: String, isDirectory: Bool) -> Bool {
            guard let components = relative(path), !components.isEmpty else { return false }
            return options.filter.includes(SyncPath(components), isDirectory: isDirectory)
        }

        /// Records a file seen changing (or, with `changedAt`, one known unchanged since then).
        private func look(at path: String, open: Bool, changedAt: Double? = nil) {
            guard included(path, isDirectory: false) else { return }
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                pending[path] = nil
                return
            }
            if var known = pending[path], known.size == Int64(info.st_size),
                Self.same(known.mtime, info.modificationTime)
            {
                known.open = open
                pending[path] = known
            } else {
                pending[path] = Pending(
                    size: Int64(info.st_size), mtime: info.modificationTime, changedAt: changedAt ?? now(), open: open)
            }
        }

        /// A folder that appeared: what it already holds was written before its watch existed.
        private func scan(_ folder: String) {
            var folders = [folder]
            while let current = folders.popLast() {
                guard included(current, isDirectory: true),
                    let names = try? FileManager.default.contentsOfDirectory(atPath: current)
                else { continue }
                for name in names {
                    let path = current + "/" + name
                    var info = stat()
                    guard lstat(path, &info) == 0 else { continue }
                    if (info.st_mode & S_IFMT) == S_IFDIR { folders.append(path) } else { look(at: path, open: false) }
                }
            }
        }

        // MARK: Timing

        /// The next moment something is due: the earliest file to settle, or the next attempt at the server.
        private func nextDeadline() -> Double? {
            if needsCatchUp { return max(retryAt, now()) }
            var earliest: Double?
            let rule = options.settleRule
            for entry in pending.values {
                let due = entry.changedAt + (entry.open ? rule.openSeconds : rule.seconds)
                earliest = min(earliest ?? due, due)
            }
            return earliest.map { max($0, retryAt) }
        }

        private func schedule(_ feed: AsyncStream<Input>.Continuation) {
            guard let deadline = nextDeadline() else {
                timer?.task.cancel()
                timer = nil
                return
            }
            if let timer, timer.deadline <= deadline { return }
            timer?.task.cancel()
            let delay = max(0, deadline - now())
            let clock = clock
            timer = (
                deadline,
                Task {
                    try? await clock.sleep(for: .seconds(delay))
                    if !Task.isCancelled { feed.yield(.tick) }
                }
            )
        }

        // MARK: Uploads

        /// A push of the whole folder under the live path's settle rule: a file still being written is left to the
        /// live path (it goes up once settled, once), and a file it sent is handed to the live path as settled, which
        /// finds the server holding it and, with delete-after-upload, removes it once the checksums match.
        private func catchUpWhileReachable() async throws {
            while true {
                try Task.checkCancellation()
                var syncOptions = SyncOptions(direction: .push)
                syncOptions.filter = options.filter
                syncOptions.imagePreparation = options.imagePreparation
                syncOptions.settle = options.settleRule
                let leftovers = CatchUpLeftovers(keepsUploads: options.deleteAfterUpload)
                do {
                    let result = try await files.runSync(
                        from: .local(root), to: .officer(remote), options: syncOptions, onEvent: leftovers.note)
                    for path in leftovers.deferred { look(at: root + "/" + path, open: false) }
                    let settled = now() - options.settleSeconds
                    for path in leftovers.uploaded where options.imagePreparation?.uploadedName(path) == nil {
                        look(at: root + "/" + path, open: false, changedAt: settled)
                    }
                    report(.caughtUp(uploaded: result.transferred, failed: result.failureCount))
                    if result.failureCount > 0 {
                        // Files that failed (the server went away halfway) are tried again by another pass, later.
                        backoff = min(options.maxBackoffSeconds, max(1, backoff * 2))
                        retryAt = now() + backoff
                        needsCatchUp = true
                    } else {
                        needsCatchUp = false
                        succeeded()
                    }
                    return
                } catch  where ErrorCategory.of(error) == .network {
                    try await waitForServer(error)
                } catch  where ErrorCategory.of(error) == .authentication {
                    throw server.tokenRejected(error)
                }
            }
        }

        private func waitForServer(_ error: any Error) async throws {
            backoff = min(options.maxBackoffSeconds, max(1, backoff * 2))
            retryAt = now() + backoff
            report(.waiting(reason: files.report(error).message, retryIn: backoff))
            if needsCatchUp { try await clock.sleep(for: .seconds(backoff)) }
        }

        private func succeeded() {
            backoff = 0
            retryAt = 0
        }

        private func uploadSettled() async throws {
            let now = now()
            guard now >= retryAt else { return }
            let rule = options.settleRule
            let due = pending.filter { rule.isSettled(unchangedFor: now - $0.value.changedAt, open: $0.value.open) }
            for (path, recorded) in due.sorted(by: { $0.value.changedAt < $1.value.changedAt }) {
                try Task.checkCancellation()
                var info = stat()
                guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                    pending[path] = nil
                    continue
                }
                if Int64(info.st_size) != recorded.size || !Self.same(info.modificationTime, recorded.mtime) {
                    pending[path] = Pending(
                        size: Int64(info.st_size), mtime: info.modificationTime, changedAt: now,
                        open: recorded.open)
                    continue
                }
                do {
                    try await upload(path, recorded, settledSince: recorded.changedAt)
                    pending[path] = nil
                    succeeded()
                } catch  where ErrorCategory.of(error) == .network {
                    try await waitForServer(error)
                    return
                } catch  where ErrorCategory.of(error) == .authentication {
                    // Without a way to sign in again, every later request would fail the same way: stop, and say so.
                    throw server.tokenRejected(error)
                } catch is CancellationError {
                    throw CancellationError()
                } catch {
                    if ErrorCategory.of(error) == .cancelled { throw error }
                    pending[path] = nil
                    report(.failed(local: path, reason: files.report(error).message))
                }
            }
        }

        private func upload(_ path: String, _ recorded: Pending, settledSince: Double) async throws {
            guard var components = relative(path), let name = components.popLast() else { return }
            var folder = remote
            for component in components { folder = try folder.appending(component) }
            let preparation = options.imagePreparation
            let remoteName = preparation?.uploadedName(name) ?? name
            let destination = try folder.appending(remoteName)
            // The time as the catch-up's listing reads it (lstat, to the nanosecond), so both compare alike.
            let mtime = SettleRule.seconds(recorded.mtime)
            // The server may have it already (the catch-up sent it, or an earlier run did before it was stopped).
            if let there = try await server.statIfExists(destination), !there.isDirectory,
                abs(there.mtime - mtime) < SyncComparison.timeTolerance,
                preparation != nil || there.size == recorded.size
            {
                report(.unchanged(local: path))
                if preparation?.uploadedName(name) == nil { try await deleteIfDelivered(path, as: destination) }
                return
            }
            if !knownFolders.contains(folder.path), !folder.isRoot {
                _ = try await server.makeFolder(folder, parents: true)
                knownFolders.insert(folder.path)
            }
            let sent = try await preparation?.prepare(path) ?? path
            let target = try server.client.uploadTarget(name: remoteName, into: folder, mtime: mtime, overwrite: true)
            let result = try await server.upload(sent, to: target).value
            report(.uploaded(local: path, remote: destination, bytes: result.bytes, settled: now() - settledSince))
            if sent != path {
                unlink(sent)
            } else {
                try await deleteIfDelivered(path, as: destination)
            }
        }

        /// With delete-after-upload, the one rule for removing a local file, whichever path sent it: only once the
        /// server's SHA-256 of `destination` (its own, or of the file read back where it computes none) equals the
        /// file's, and only if the file did not change meanwhile.
        private func deleteIfDelivered(_ path: String, as destination: RemotePath) async throws {
            guard options.deleteAfterUpload, let before = FileIdentity(path) else { return }
            let local = try SHA256Hasher.hash(file: path)
            guard local == (try await server.serverChecksum(of: destination)), FileIdentity(path) == before else {
                return
            }
            unlink(path)
            report(.deletedLocal(path))
        }
    }

    /// What a catch-up leaves to the live path, noted as its events come (from its transfers' tasks).
    private final class CatchUpLeftovers: Sendable {
        private let keepsUploads: Bool
        private let paths = LockedValue((deferred: [String](), uploaded: [String]()))

        init(keepsUploads: Bool) { self.keepsUploads = keepsUploads }

        /// Files not settled yet, relative to the watched folder.
        var deferred: [String] { paths.withLock { $0.deferred } }
        /// Files it sent, when they are to be removed once delivered.
        var uploaded: [String] { paths.withLock { $0.uploaded } }

        func note(_ event: SyncEvent) {
            switch event {
            case .deferred(let path): paths.withLock { $0.deferred.append(path) }
            case .done(let action) where keepsUploads && action.kind == .upload:
                paths.withLock { $0.uploaded.append(action.path) }
            default: break
            }
        }
    }

    /// A file's identity and version: a file replaced or written while it was hashed is not the file hashed.
    private struct FileIdentity: Equatable {
        let device: UInt64, inode: UInt64, size: Int64, mtime: timespec, ctime: timespec

        static func == (a: FileIdentity, b: FileIdentity) -> Bool {
            a.device == b.device && a.inode == b.inode && a.size == b.size && FolderUploadWatch.same(a.mtime, b.mtime)
                && FolderUploadWatch.same(a.ctime, b.ctime)
        }

        init?(_ path: String) {
            var info = stat()
            guard lstat(path, &info) == 0 else { return nil }
            (device, inode, size, mtime, ctime) = (
                UInt64(info.st_dev), UInt64(info.st_ino), Int64(info.st_size), info.modificationTime,
                info.statusChangeTime
            )
        }
    }

#endif

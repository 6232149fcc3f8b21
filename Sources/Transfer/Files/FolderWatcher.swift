#if os(Linux)
    import FileModel
    import Foundation
    import Platform

    /// A change under a watched folder.
    package enum FolderChange: Sendable, Equatable {
        /// A file was created, written or touched: look at it (a writer may still have it open).
        case file(String)
        /// A file found in a folder that appeared: written before the folder's watch was in place (or still being
        /// written, which its next change will tell); look at it as a scan would.
        case found(String)
        /// A file open for writing was closed, or a file was moved in whole: its writer is done with it.
        case closed(String)
        /// A file or folder was removed or moved away.
        case removed(String)
        /// A folder appeared (created or moved in); it is watched from now on, and what it already holds must be
        /// looked at (files may have been written into it before its watch was added).
        case folder(String)
        /// The kernel's queue overflowed: changes were lost, everything must be looked at again.
        case overflow
    }

    /// Watches a folder tree with inotify: every folder, new ones included, on a thread of its own that sleeps in
    /// `poll` until the kernel reports something, so an idle watch costs no CPU. Changes arrive in order as an
    /// async sequence; ``stop()`` ends it.
    package final class FolderWatcher: Sendable {
        /// The changes, in the order the kernel reported them.
        package let changes: AsyncStream<FolderChange>

        private let descriptor: Int32
        private let wake: (read: Int32, write: Int32)
        private let continuation: AsyncStream<FolderChange>.Continuation
        private struct Watches {
            /// The folder each inotify watch is on.
            var folders: [Int32: String] = [:]
            var stopped = false
        }
        private let watches = LockedValue(Watches())

        /// Why a tree cannot be watched.
        package struct WatchError: Error, CustomStringConvertible, Sendable {
            /// The folder.
            package var path: String
            /// The system's words.
            package var reason: String
            /// One line.
            package var description: String { "\(path): cannot watch: \(reason)" }
        }

        /// Starts watching `root` and every folder below it.
        package init(root: String) throws {
            descriptor = InotifyCalls.open()
            guard descriptor >= 0 else { throw WatchError(path: root, reason: String(cString: strerror(errno))) }
            var pipeEnds: [Int32] = [0, 0]
            guard pipe(&pipeEnds) == 0 else {
                close(descriptor)
                throw WatchError(path: root, reason: String(cString: strerror(errno)))
            }
            wake = (pipeEnds[0], pipeEnds[1])
            (changes, continuation) = AsyncStream.makeStream(of: FolderChange.self)
            do {
                try watchTree(root)
            } catch {
                // Stopped already: the deinit that follows a failed init must not write to the wake pipe closed
                // here, whose descriptor another watcher may have been given meanwhile.
                watches.withLock { $0.stopped = true }
                close(descriptor)
                close(wake.read)
                close(wake.write)
                throw error
            }
            let thread = Thread { [self] in readLoop() }
            thread.name = "officer-files.watch"
            thread.start()
        }

        deinit {
            stop()
        }

        /// Stops watching; the sequence of changes ends.
        package func stop() {
            let first = watches.withLock { watches -> Bool in
                defer { watches.stopped = true }
                return !watches.stopped
            }
            guard first else { return }
            var byte: UInt8 = 1
            _ = write(wake.write, &byte, 1)
        }

        /// Folders watched now.
        package var watchedFolders: Int { watches.withLock { $0.folders.count } }

        /// Adds a watch on `folder` and every folder below it (depth first, links not followed); returns the
        /// folders watched and the files found in them (a folder that appears may already hold files written
        /// before its watch was in place: they are reported as found).
        @discardableResult
        private func watchTree(_ folder: String) throws -> (folders: [String], files: [String]) {
            var added: [String] = []
            var files: [String] = []
            var pending = [folder]
            while let current = pending.popLast() {
                let watch = InotifyCalls.addWatch(descriptor, current)
                if watch < 0 {
                    // A folder removed meanwhile is not an error; one that cannot be watched at the top is.
                    if current == folder, added.isEmpty {
                        throw WatchError(path: current, reason: String(cString: strerror(errno)))
                    }
                    continue
                }
                watches.withLock { $0.folders[watch] = current }
                added.append(current)
                guard let names = try? FileManager.default.contentsOfDirectory(atPath: current) else { continue }
                for name in names {
                    let path = current + "/" + name
                    var info = stat()
                    guard lstat(path, &info) == 0 else { continue }
                    switch info.st_mode & S_IFMT {
                    case S_IFDIR: pending.append(path)
                    case S_IFREG: files.append(path)
                    default: break
                    }
                }
            }
            return (added, files)
        }

        private func readLoop() {
            defer {
                continuation.finish()
                close(descriptor)
                close(wake.read)
                close(wake.write)
            }
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            var fds = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
            ]
            while true {
                fds[0].revents = 0
                fds[1].revents = 0
                if SystemCalls.retryingInterrupts({ poll(&fds, 2, -1) }) < 0 { return }
                if fds[1].revents != 0 { return }
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 {
                    if count < 0, errno == EAGAIN || errno == EINTR { continue }
                    return
                }
                parse(buffer, count: count)
            }
        }

        private func parse(_ buffer: [UInt8], count: Int) {
            var offset = 0
            let header = InotifyCalls.eventHeaderSize
            while offset + header <= count {
                let (watch, mask, length) = buffer.withUnsafeBytes { InotifyCalls.event(in: $0, at: offset) }
                let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                offset += header + length
                if mask & InotifyCalls.overflow != 0 {
                    continuation.yield(.overflow)
                    continue
                }
                if mask & InotifyCalls.ignored != 0 {
                    watches.withLock { _ = $0.folders.removeValue(forKey: watch) }
                    continue
                }
                guard let folder = watches.withLock({ $0.folders[watch] }) else { continue }
                if mask & InotifyCalls.selfRemoved != 0 { continue }
                let path = name.isEmpty ? folder : folder + "/" + name
                if mask & InotifyCalls.removed != 0 {
                    continuation.yield(.removed(path))
                } else if mask & InotifyCalls.isDirectory != 0 {
                    if mask & InotifyCalls.appeared != 0 {
                        let found = try? watchTree(path)
                        continuation.yield(.folder(path))
                        for file in found?.files ?? [] { continuation.yield(.found(file)) }
                    }
                } else if mask & (InotifyCalls.closedWrite | InotifyCalls.movedIn) != 0 {
                    continuation.yield(.closed(path))
                } else {
                    continuation.yield(.file(path))
                }
            }
        }
    }
#endif

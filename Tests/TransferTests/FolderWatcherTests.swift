#if os(Linux)
    import Foundation
    import TestSupport
    import Testing
    import Transfer

    /// inotify through `FolderWatcher`: files in the tree and in folders made later, closes told apart from writes,
    /// removals, and an end when stopped.
    @Suite(.timeLimit(.minutes(30))) struct FolderWatcherTests {
        let work = TemporaryDirectory(prefix: "folder-watcher")

        /// Collects changes until `until` holds of them (or 10 s pass).
        func collect(
            _ watcher: FolderWatcher, until: @escaping @Sendable ([FolderChange]) -> Bool, while act: () throws -> Void
        ) async throws -> [FolderChange] {
            let collector = Task {
                var seen: [FolderChange] = []
                for await change in watcher.changes {
                    seen.append(change)
                    if until(seen) { break }
                }
                return seen
            }
            try act()
            // The suite's time limit is the bound: a change never reported fails it there.
            return await collector.value
        }

        /// Writes `text` to `relative` through a descriptor no child process can inherit: tests run beside others
        /// that start processes, and a child that inherited the descriptor (Foundation opens without O_CLOEXEC)
        /// would hold the file open, so its close would be reported only when that child ends.
        func writeClosing(_ relative: String, _ text: String) throws {
            let path = work.file(relative)
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
            defer { close(descriptor) }
            let bytes = Array(text.utf8)
            guard write(descriptor, bytes, bytes.count) == bytes.count else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
        }

        @Test func reportsFilesFoldersAndRemovalsBelowTheRoot() async throws {
            try FileManager.default.createDirectory(
                atPath: work.file("existing/deeper"), withIntermediateDirectories: true)
            let watcher = try FolderWatcher(root: work.path)
            #expect(watcher.watchedFolders == 3)
            let root = work.path
            let changes = try await collect(watcher, until: { $0.contains(.removed(root + "/existing/deeper/b.txt")) })
            {
                try writeClosing("a.txt", "a")
                try writeClosing("existing/deeper/b.txt", "b")
                try FileManager.default.createDirectory(
                    atPath: work.file("new/inner"), withIntermediateDirectories: true)
                try writeClosing("new/inner/c.txt", "c")
                try FileManager.default.removeItem(atPath: work.file("existing/deeper/b.txt"))
            }
            #expect(changes.contains(.closed(root + "/a.txt")))
            #expect(changes.contains(.file(root + "/a.txt")), "a write is reported before its close")
            #expect(changes.contains(.closed(root + "/existing/deeper/b.txt")))
            #expect(changes.contains(.folder(root + "/new")))
            // A file written before its new folder's watch was in place is found when the folder is (.found); after
            // it, its close is seen: either way it is reported.
            #expect(
                changes.contains(.closed(root + "/new/inner/c.txt"))
                    || changes.contains(.found(root + "/new/inner/c.txt")),
                "a folder made later is watched, its subfolders too")
            #expect(watcher.watchedFolders == 5)
            watcher.stop()
            var ended = false
            for await _ in watcher.changes {}
            ended = true
            #expect(ended)
        }

        @Test func aMissingFolderCannotBeWatched() {
            #expect(throws: FolderWatcher.WatchError.self) { try FolderWatcher(root: work.file("nothing-here")) }
        }
    }
#endif

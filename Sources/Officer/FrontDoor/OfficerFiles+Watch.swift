#if os(Linux)
    import FileModel
    import Foundation
    import Transfer

    extension OfficerFiles {
        /// Watches a local folder and sends what appears or changes in it to `remote`, until cancelled. First a
        /// `copy` of the whole folder catches up with what changed while nothing watched (so a restart or a crash
        /// loses nothing); then every file goes up once its size and modification time have stayed unchanged for
        /// ``WatchOptions/settleSeconds`` and its writer closed it, over resumable tus, replacing an older copy of
        /// it on the server. New folders are watched as they appear. While the server cannot be reached the watch
        /// waits (1 s, doubling to ``WatchOptions/maxBackoffSeconds``) and carries on. Idle, it sleeps in the kernel.
        package func watch(_ local: String, to remote: RemotePath, options: WatchOptions = WatchOptions())
            -> ProgressOperation<WatchEvent, Void, any Error>
        {
            ProgressOperation { report in
                try LocalFiles.requireLocalFolder(local)
                let root = URL(fileURLWithPath: local).standardizedFileURL.path
                let watcher = try FolderWatcher(root: root)
                defer { watcher.stop() }
                try await FolderUploadWatch(
                    files: self, server: try self.server(of: remote), root: root, remote: remote, options: options,
                    report: report
                )
                .run(watcher)
            }
        }
    }
#endif

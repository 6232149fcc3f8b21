import FileModel
import Foundation
import Transfer

/// Work that blocks a thread (a C library reading through requests) kept off Swift's shared threads.
enum BlockingWork {
    /// Runs blocking work (libarchive, libvips reading through a ``RangedFile``) on a thread of its own, so
    /// the requests it waits for never starve Swift's shared threads; cancelling the task fails its next read.
    static func onOwnThread<T: Sendable>(cancelling file: RangedFile?, _ body: @escaping @Sendable () throws -> T)
        async throws -> T
    {
        try await withTaskCancellationHandler {
            let results = try await ParallelRunner.map([0], width: 1) { _ in Result { try body() } }
            try Task.checkCancellation()
            return try results[0].get()
        } onCancel: {
            file?.cancel()
        }
    }
}

import Foundation
import Preview

/// Files prepared for upload one window ahead of the consumer: while the caller uploads one window, the next
/// is prepared on every core, and no further (memory and temp space stay bounded by two windows). Elements
/// come in the order of the files.
package struct PreparedUploads: AsyncSequence, Sendable {
    /// One file and what preparing it gave.
    package typealias Element = (local: String, result: Result<UploadImagePreparation.Item, ImageError>)

    let files: [String]
    let preparation: UploadImagePreparation
    let width: Int

    /// `files` through `preparation`, `width` at a time (default: one per core), windows of twice that.
    package init(
        _ files: [String], preparation: UploadImagePreparation,
        width: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.files = files
        self.preparation = preparation
        self.width = Swift.max(1, width)
    }

    /// Starts preparing the first window.
    package func makeAsyncIterator() -> Iterator { Iterator(self) }

    /// Hands out one window while the next is being prepared.
    package struct Iterator: AsyncIteratorProtocol {
        private var windows: [[String]]
        private let sequence: PreparedUploads
        private var pending: Task<[Result<UploadImagePreparation.Item, ImageError>], any Error>?
        private var ready: [Element] = []

        init(_ sequence: PreparedUploads) {
            self.sequence = sequence
            let size = sequence.width * 2
            windows = stride(from: 0, to: sequence.files.count, by: size).map {
                Array(sequence.files[$0..<Swift.min($0 + size, sequence.files.count)])
            }
            pending = windows.isEmpty ? nil : Self.prepare(windows[0], sequence)
        }

        /// The next prepared file, in order; nil after the last.
        package mutating func next() async -> Element? {
            if ready.isEmpty {
                guard let pending, !windows.isEmpty else { return nil }
                let window = windows.removeFirst()
                // Cancelled, the window being prepared stops too, and the sequence ends.
                let outcome = await withTaskCancellationHandler {
                    await pending.result
                } onCancel: {
                    pending.cancel()
                }
                guard case .success(let results) = outcome else {
                    windows = []
                    self.pending = nil
                    return nil
                }
                self.pending = windows.first.map { Self.prepare($0, sequence) }
                ready = zip(window, results).map { ($0, $1) }
            }
            return ready.removeFirst()
        }

        private static func prepare(
            _ window: [String], _ sequence: PreparedUploads
        ) -> Task<[Result<UploadImagePreparation.Item, ImageError>], any Error> {
            let preparation = sequence.preparation
            return Task { try await ParallelRunner.map(window, width: sequence.width) { preparation.prepare($0) } }
        }
    }
}

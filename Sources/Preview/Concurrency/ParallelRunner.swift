import FileModel
import Foundation

/// Runs blocking work (libvips, libmagic) on `width` threads of its own, keeping the results in order.
/// The threads live for the whole batch, so per-thread state (libmagic cookies) is set up once per thread.
package enum ParallelRunner {
    /// `body` applied to every input on `width` threads; the outputs in the inputs' order.
    package static func map<Input: Sendable, Output: Sendable>(
        _ inputs: [Input], width: Int, _ body: @escaping @Sendable (Input) -> Output
    ) async -> [Output] {
        guard !inputs.isEmpty else { return [] }
        let state = BatchState<Output>(count: inputs.count)
        return await withCheckedContinuation { continuation in
            state.onFinish = { continuation.resume(returning: $0) }
            for _ in 0..<max(1, min(width, inputs.count)) {
                let thread = Thread {
                    while let index = state.claim() { state.store(body(inputs[index]), at: index) }
                }
                thread.stackSize = 8 << 20
                thread.start()
            }
        }
    }
}

/// The shared work list and results of one ParallelRunner batch.
private final class BatchState<Output: Sendable>: Sendable {
    private struct Batch {
        var next = 0
        var done = 0
        var results: [Output?]
        var onFinish: (@Sendable ([Output]) -> Void)?
    }
    private let batch: LockedValue<Batch>

    init(count: Int) { batch = LockedValue(Batch(results: Array(repeating: nil, count: count))) }

    /// Called with the outputs once the last one is stored.
    var onFinish: (@Sendable ([Output]) -> Void)? {
        get { batch.withLock { $0.onFinish } }
        set { batch.withLock { $0.onFinish = newValue } }
    }

    func claim() -> Int? {
        batch.withLock { batch in
            guard batch.next < batch.results.count else { return nil }
            defer { batch.next += 1 }
            return batch.next
        }
    }

    func store(_ output: Output, at index: Int) {
        let (finished, onFinish) = batch.withLock { batch -> ([Output]?, (@Sendable ([Output]) -> Void)?) in
            batch.results[index] = output
            batch.done += 1
            return (batch.done == batch.results.count ? batch.results.map { $0! } : nil, batch.onFinish)
        }
        if let finished { onFinish?(finished) }
    }
}

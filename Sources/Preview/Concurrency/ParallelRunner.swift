import FileModel
import Foundation

/// Runs blocking work (libvips, libmagic) on `width` threads of its own, keeping the results in order.
/// The threads live for the whole batch, so per-thread state (libmagic cookies) is set up once per thread.
package enum ParallelRunner {
    /// `body` applied to every input on `width` threads; the outputs in the inputs' order. Threads of its own, not
    /// Swift's shared pool: `body` is blocking C work (libvips, libarchive, libmagic) that would hold the pool's
    /// few threads. Cancelling the calling task stops it: no input is started after that, the ones under way end,
    /// and it throws `CancellationError`.
    package static func map<Input: Sendable, Output: Sendable>(
        _ inputs: [Input], width: Int, _ body: @escaping @Sendable (Input) -> Output
    ) async throws(CancellationError) -> [Output] {
        guard !inputs.isEmpty else { return [] }
        // Threads do not inherit task-locals: the front door's plug-ins go along with the work.
        let body = PluginScope.carrying(body)
        let threads = max(1, min(width, inputs.count))
        let state = BatchState<Output>(count: inputs.count, threads: threads)
        let outputs = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.onFinish = { continuation.resume(returning: $0) }
                for _ in 0..<threads {
                    let thread = Thread {
                        while let index = state.claim() { state.store(body(inputs[index]), at: index) }
                        state.threadEnded()
                    }
                    thread.stackSize = 8 << 20
                    thread.start()
                }
            }
        } onCancel: {
            state.cancel()
        }
        guard let outputs else { throw CancellationError() }
        return outputs
    }
}

/// The shared work list and results of one ParallelRunner batch.
private final class BatchState<Output: Sendable>: Sendable {
    private struct Batch {
        var next = 0
        var results: [Output?]
        var threadsLeft: Int
        var cancelled = false
        var onFinish: (@Sendable ([Output]?) -> Void)?
    }
    private let batch: LockedValue<Batch>

    init(count: Int, threads: Int) {
        batch = LockedValue(Batch(results: Array(repeating: nil, count: count), threadsLeft: threads))
    }

    /// Called once every thread has ended: with the outputs, or nil when the batch was cancelled first.
    var onFinish: (@Sendable ([Output]?) -> Void)? {
        get { batch.withLock { $0.onFinish } }
        set { batch.withLock { $0.onFinish = newValue } }
    }

    /// The next input to run; nil when none is left or the batch was cancelled.
    func claim() -> Int? {
        batch.withLock { batch in
            guard !batch.cancelled, batch.next < batch.results.count else { return nil }
            defer { batch.next += 1 }
            return batch.next
        }
    }

    func store(_ output: Output, at index: Int) { batch.withLock { $0.results[index] = output } }

    /// No input is started after this.
    func cancel() { batch.withLock { $0.cancelled = true } }

    /// A thread found nothing more to run; the last one finishes the batch.
    func threadEnded() {
        let finish = batch.withLock { batch -> (@Sendable () -> Void)? in
            batch.threadsLeft -= 1
            guard batch.threadsLeft == 0, let onFinish = batch.onFinish else { return nil }
            let complete = batch.results.allSatisfy { $0 != nil }
            let outputs = complete ? batch.results.map { $0! } : nil
            return { onFinish(outputs) }
        }
        finish?()
    }
}

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
private final class BatchState<Output>: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var done = 0
    private var results: [Output?]
    var onFinish: (([Output]) -> Void)?

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func claim() -> Int? {
        lock.withLock {
            guard next < results.count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func store(_ output: Output, at index: Int) {
        let finished: [Output]? = lock.withLock {
            results[index] = output
            done += 1
            return done == results.count ? results.map { $0! } : nil
        }
        if let finished { onFinish?(finished) }
    }
}

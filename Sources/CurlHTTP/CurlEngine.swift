import CCurl
import FileModel
import Foundation
import HTTP

/// Drives libcurl's multi interface on one dedicated thread and hands results back to async callers.
///
/// One multi handle means one connection pool: consecutive requests to the same server reuse connections.
final class CurlEngine: @unchecked Sendable {  // `active` is the engine thread's alone; the rest is Sendable.
    /// The process-wide engine.
    static let shared = CurlEngine()

    private let multi: CurlCalls.Multi
    /// Transfers handed over by callers, taken by the engine thread at its next turn.
    private let incoming = LockedValue<[CurlTransfer]>([])
    // Touched only on the engine thread.
    private var active: [CurlCalls.Easy: CurlTransfer] = [:]

    private init() {
        precondition(CurlCalls.ensureGlobalInit(), "curl_global_init failed")
        guard let multi = CurlCalls.multiInit() else { fatalError("curl_multi_init failed") }
        self.multi = multi
        // Idle connections kept for reuse: more than a sync keeps busy (up to 64 small files and 16 checks at
        // once), so a file that ends does not close a connection the next one must open again (a round trip).
        CurlCalls.multiSetLong(multi, CURLMOPT_MAXCONNECTS, 96)
        let thread = Thread { [unowned self] in self.run() }
        thread.name = "officer-files.curl"
        thread.start()
    }

    /// Runs `transfer` to completion; cancelling the calling task aborts it.
    func perform(_ transfer: CurlTransfer) async throws -> HTTPResponse {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.attach(continuation, wakeEngine: { [self] in CurlCalls.multiWakeup(self.multi) })
                incoming.withLock { $0.append(transfer) }
                CurlCalls.multiWakeup(multi)
            }
        } onCancel: {
            transfer.cancel()
            CurlCalls.multiWakeup(multi)
        }
    }

    private func run() {
        while true {
            let fresh = incoming.withLock { incoming -> [CurlTransfer] in
                defer { incoming.removeAll() }
                return incoming
            }
            for transfer in fresh {
                if transfer.isCancelled || CurlCalls.multiAdd(multi, transfer.easy).rawValue != 0 {
                    transfer.finish(code: CurlCalls.abortedByCallback)
                } else {
                    active[transfer.easy] = transfer
                }
            }
            for (easy, transfer) in active where transfer.isCancelled {
                CurlCalls.multiRemove(multi, easy)
                active[easy] = nil
                transfer.finish(code: CurlCalls.abortedByCallback)
            }
            let now = ProcessInfo.processInfo.systemUptime
            for transfer in active.values { transfer.resumeIfDue(now: now) }
            _ = CurlCalls.multiPerform(multi)
            for (easy, code) in CurlCalls.multiFinished(multi) {
                CurlCalls.multiRemove(multi, easy)
                active.removeValue(forKey: easy)?.finish(code: code)
            }
            // Sleeps until a socket is ready, a timeout is due, or perform()/cancel wakes it.
            let nextResume = active.values.compactMap(\.resumeAt).min()
            // Clamped as a Double first: a resume long due (or due "at once", 0) is no Int32 overflow.
            let wait = nextResume.map { Int32(min(250, max(1, ($0 - ProcessInfo.processInfo.systemUptime) * 1000))) }
            CurlCalls.multiPoll(multi, timeoutMilliseconds: active.isEmpty ? 10_000 : wait ?? 250)
        }
    }
}

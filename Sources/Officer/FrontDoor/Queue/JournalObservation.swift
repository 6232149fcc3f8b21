import FileModel
import Foundation
import Journal

/// Records of the journal as a stream an app can bind to: the value now, then each different value after the
/// journal changed. A write of this process through the journal wakes it at once
/// (``TransferJournal/observeWrites(_:)``); another process's change (the command line beside an app, a second
/// front door) reaches no notification here, so the journal's change stamp is also asked every `interval` on the
/// clock given — two reads of a counter — and the records only when it moved.
enum JournalObservation {
    /// How often the change stamp is asked for other processes' changes.
    static let interval: Duration = .milliseconds(250)

    static func stream<Value: Equatable & Sendable>(
        of journal: TransferJournal?, clock: any Clock<Duration>, read: @escaping @Sendable () throws -> Value
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        guard let journal else {
            if let value = try? read() { continuation.yield(value) }
            continuation.finish()
            return stream
        }
        let wrote = WakeSignal()
        let observer = journal.observeWrites { wrote.fire() }
        let task = Task {
            defer { journal.stopObservingWrites(observer) }
            var stamp: [Int64]?
            var last: Value?
            while !Task.isCancelled {
                // A failed read (a locked or busy journal) is asked again at the next wake.
                let now = try? journal.changeStamp()
                if now == nil || now != stamp, let value = try? read() {
                    stamp = now
                    if value != last {
                        last = value
                        continuation.yield(value)
                    }
                }
                await wrote.wait(atMost: interval, on: clock)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

import Foundation
import Journal

/// Records of the journal as a stream an app can bind to: the value now, then each different value after the
/// journal changed. Another process's change (the command line beside an app, a second front door) reaches no
/// notification here, so the journal's change stamp is asked every `interval` — two reads of a counter — and
/// the records only when it moved.
enum JournalObservation {
    /// How often the change stamp is asked.
    static let interval: Duration = .milliseconds(250)

    static func stream<Value: Equatable & Sendable>(
        of journal: TransferJournal?, read: @escaping @Sendable () throws -> Value
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        guard let journal else {
            if let value = try? read() { continuation.yield(value) }
            continuation.finish()
            return stream
        }
        let task = Task {
            var stamp: [Int64]?
            var last: Value?
            while !Task.isCancelled {
                // A failed read (a locked or busy journal) is asked again at the next tick.
                let now = try? journal.changeStamp()
                if now == nil || now != stamp, let value = try? read() {
                    stamp = now
                    if value != last {
                        last = value
                        continuation.yield(value)
                    }
                }
                try? await Task.sleep(for: interval)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

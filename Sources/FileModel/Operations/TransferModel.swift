#if canImport(Observation)
    import Observation

    /// One transfer as a view binds to it: an `@Observable` model, on the main actor, that reads a
    /// ``TransferOperation``'s ``ProgressOperation/progress()`` and keeps its latest state. A SwiftUI view shows
    /// `progress` (fraction, rate, time left) and `isPaused`, and calls ``cancel()``; when the work ends, `progress`
    /// holds its end state and `failure` what stopped it.
    @MainActor @Observable
    public final class TransferModel {
        /// How the transfer stands now.
        public private(set) var progress = OperationProgress()
        /// The last event, for a line such as "retrying part 2"; nil before the first and after the end.
        public private(set) var lastEvent: TransferEvent?
        /// True once an upload paused (cancelled with what the remote confirmed kept): the same call continues it.
        public private(set) var isPaused = false
        /// What stopped the work, once it ended other than as asked.
        public private(set) var failure: (any Error)?
        /// True once the work ended, however it ended (verifying the last bytes is not an end).
        public var isFinished: Bool { progress.state != .running && progress.state != .verifying }

        @ObservationIgnored private let stop: @Sendable () -> Void
        @ObservationIgnored private var reader: Task<Void, Never>?

        /// Starts following `operation` (reading its updates: read nothing else of it but `value`).
        public init<Success: Sendable, Failure: Error>(_ operation: ProgressOperation<TransferEvent, Success, Failure>)
        {
            stop = { operation.cancel() }
            let updates = operation.progress()
            reader = Task { [weak self] in
                for await update in updates {
                    guard let self else { return }
                    self.apply(update)
                    if update.event == nil {
                        do { _ = try await operation.value } catch { self.failure = error }
                    }
                }
            }
        }

        /// Stops the work (an upload pauses; a download keeps what it has for the next call).
        public func cancel() { stop() }

        private func apply(_ update: TransferUpdate) {
            progress = update.progress
            lastEvent = update.event
            if case .paused = update.event { isPaused = true }
            if update.progress.state == .paused { isPaused = true }
        }
    }
#endif

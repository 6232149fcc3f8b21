import FileModel

/// Sums the progress of a transfer's parts (ranges, multipart parts) into bytes of the whole file.
final class PartProgressSum: Sendable {
    private let done = LockedValue<[Int: Int64]>([:])

    /// The whole file's bytes once `part` has `done` of its own.
    func update(part: Int, done value: Int64) -> Int64 {
        done.withLock { done in
            done[part] = value
            return done.values.reduce(0, +)
        }
    }
}

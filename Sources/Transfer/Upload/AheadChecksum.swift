import FileModel
import Foundation
import HTTP

/// The checksum of the chunk most likely to follow, computed on a thread of its own while the chunk before it is on
/// the wire, in steps, so that a prefix of it can go at once when the link is faster than the hashing.
///
/// Why steps: a chunk's checksum goes in its request's headers, so the chunk cannot leave before its bytes are
/// hashed. On a fast link the next chunk (up to four times the last, as the sizes grow) takes longer to hash than
/// the chunk before takes to send (loopback: 256 MiB hash in about 0.18 s, 64 MiB go in 0.1 s), and the link
/// waited for the hash at every step of the growth. Asked for what it has, the hasher stops at the next step and
/// gives the digest of the bytes hashed so far: that prefix goes at once (the machine takes a shorter chunk as it
/// takes a server keeping less), and the next checksum starts from where it ends.
final class AheadChecksum: Sendable {
    /// Where the chunk starts, in the part.
    let start: Int64
    /// The bytes it hashes at most.
    let length: Int64

    /// Bytes hashed between two looks at what is asked: small enough that an answer comes soon, large enough that
    /// a look costs nothing.
    static let step: Int64 = 4 << 20

    /// What the caller asked, where the hashing stands, and how it ended.
    private struct State {
        var hashed: Int64 = 0
        var wanted: (minimum: Int64, maximum: Int64, answer: CheckedContinuation<Taken?, Never>)?
        var finished: Taken?
        var failed = false
        var cancelled = false
    }

    /// A checksummed prefix: its length and its `Upload-Checksum` value.
    struct Taken: Equatable, Sendable {
        var length: Int64
        var header: String
    }

    private let state = LockedValue(State())

    /// Starts hashing `length` bytes of `path` from `fileOffset` (the chunk at `start` of its part) with
    /// `algorithm`, with the digests `plugins` bring (a thread inherits no task-locals).
    init(
        path: String, fileOffset: Int64, start: Int64, length: Int64, algorithm: String,
        plugins: [ObjectIdentifier: any Sendable]
    ) {
        self.start = start
        self.length = length
        let thread = Thread { [self] in
            PluginScope.$overrides.withValue(plugins) {
                hash(path: path, from: fileOffset, algorithm: algorithm)
            }
        }
        thread.start()
    }

    /// The checksum of a prefix of at most `maximum` bytes: waits until `minimum` are hashed (or all it may hash,
    /// if fewer) and stops there. Nil when it cannot give one (it hashed past `maximum` already, the file could
    /// not be read, or it was cancelled): the caller hashes the chunk afresh, and meets the error itself.
    func take(minimum: Int64, maximum: Int64) async -> Taken? {
        await withCheckedContinuation { continuation in
            let answer: Taken?? = state.withLock { state in
                if let finished = state.finished { return Self.fits(finished, maximum) ? finished : .some(nil) }
                if state.failed || state.cancelled || state.hashed > maximum { return .some(nil) }
                state.wanted = (max(1, minimum), maximum, continuation)
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Stops the hashing (nothing will take it); a caller waiting in ``take(minimum:maximum:)`` gets nil.
    func cancel() { endWithout { $0.cancelled = true } }

    /// The thread's loop: a step at a time, looking between steps at what is asked.
    private func hash(path: String, from fileOffset: Int64, algorithm: String) {
        let hasher = SHA256Hasher(sha1: algorithm == "sha1")
        var hashed: Int64 = 0  // this thread's own count; `state.hashed` publishes it
        while true {
            let next: Int64? = state.withLock { state in
                guard !state.cancelled else { return nil }
                let cap = min(length, state.wanted?.maximum ?? length)
                let enough = state.wanted.map { state.hashed >= $0.minimum } ?? false
                return state.hashed >= cap || enough ? nil : min(Self.step, cap - state.hashed)
            }
            guard let next else { break }
            do {
                try hasher.update(file: path, offset: fileOffset + hashed, length: next)
            } catch {
                endWithout { $0.failed = true }
                return
            }
            hashed += next
            state.withLock { $0.hashed = hashed }
        }
        finish(TusUploader.checksumHeader(algorithm, digest: hasher.finalize()))
    }

    /// The hashing stopped: whoever waits gets the prefix, or a later ``take(minimum:maximum:)`` does.
    private func finish(_ header: String) {
        let waiting: (CheckedContinuation<Taken?, Never>, Taken?)? = state.withLock { state in
            guard !state.cancelled else { return nil }
            let taken = Taken(length: state.hashed, header: header)
            state.finished = taken
            defer { state.wanted = nil }
            // A step under way when the ask came may have passed its maximum: that caller hashes afresh.
            return state.wanted.map { ($0.answer, Self.fits(taken, $0.maximum) ? taken : nil) }
        }
        if let (answer, taken) = waiting { answer.resume(returning: taken) }
    }

    /// A prefix a caller may send: some bytes, no more than it may.
    private static func fits(_ taken: Taken, _ maximum: Int64) -> Bool { taken.length > 0 && taken.length <= maximum }

    /// Marks the hashing ended without a checksum (`mark`: cancelled or failed); whoever waits gets nil.
    private func endWithout(_ mark: (inout State) -> Void) {
        let waiting = state.withLock { state in
            mark(&state)
            defer { state.wanted = nil }
            return state.wanted?.answer
        }
        waiting?.resume(returning: nil)
    }
}

import FileModel
import Foundation
import HTTP

/// The SHA-256 of a file that ranges fill, taken as its bytes land. Each time the part of the file written without
/// a gap from its first byte grows (its frontier), a task of the digest's own reads back what is new and hashes it,
/// so that at the last byte only what landed beyond that frontier is left to hash: nothing for one range, the
/// ranges after the first for several. What ``ContentVerification`` then checks is this digest: the bytes read back
/// from the file, as ``ContentVerification/check(file:against:)`` reads them, only earlier.
///
/// A frontier behind one already hashed (a range written again from further back) starts the digest over.
final class LandingDigest: Sendable {
    private let frontiers: AsyncStream<Int64>.Continuation
    private let worker: Task<String?, Never>
    /// The last frontier passed on to the worker (-1: none yet).
    private let told = LockedValue<Int64>(-1)

    /// How far the frontier moves before the worker is woken: an engine reports every buffer it stores (16 KiB
    /// from libcurl, 65,000 a GiB), and a wake-up, a read and a hash call for each cost more CPU than the hashing
    /// (measured: a 1 GiB S3 get spent about 1 s of its 4.3 s of CPU on them). At the end at most this much is left
    /// to hash.
    static let step: Int64 = 4 << 20

    /// A digest of the file at `path`, hashed as ``advance(to:)`` says its bytes land, with the caller's hashing
    /// plug-in (its task's scope goes with the task that hashes).
    init(path: String) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int64.self, bufferingPolicy: .bufferingNewest(1))
        frontiers = continuation
        worker = Task { await Self.follow(stream, path: path) }
    }

    deinit {
        frontiers.finish()
        worker.cancel()
    }

    /// The file's bytes `0..<frontier` are written. Passed on once it is a ``step`` beyond the last one told, or
    /// behind it (the digest starts over).
    func advance(to frontier: Int64) {
        let tell = told.withLock { told in
            guard told < 0 || frontier < told || frontier >= told + Self.step else { return false }
            told = frontier
            return true
        }
        if tell { frontiers.yield(frontier) }
    }

    /// The SHA-256 of the file's first `length` bytes, once what is left of them is hashed; nil when a read failed
    /// (the caller then hashes the file itself, and meets the failure there).
    func finish(length: Int64) async -> String? {
        frontiers.yield(length)
        frontiers.finish()
        return await worker.value
    }

    /// Hashes up to each frontier as it comes, in steps of 8 MiB (each a suspension point: the pool's threads are
    /// the download's too); the digest of the last frontier, once the stream ends.
    private static func follow(_ frontiers: AsyncStream<Int64>, path: String) async -> String? {
        var hasher = SHA256Hasher()
        var hashed: Int64 = 0
        var last: Int64 = 0
        for await frontier in frontiers {
            if frontier < hashed {
                hasher = SHA256Hasher()
                hashed = 0
            }
            while hashed < frontier {
                if Task.isCancelled { return nil }
                let step = min(frontier - hashed, 8 << 20)
                do { try hasher.update(file: path, offset: hashed, length: step) } catch { return nil }
                hashed += step
                await Task.yield()
            }
            last = frontier
        }
        return hashed == last ? hasher.finalizeHex() : nil
    }
}

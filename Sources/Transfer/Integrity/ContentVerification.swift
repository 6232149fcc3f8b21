import FileModel
import HTTP

/// The one step through which downloaded bytes become visible — renamed into place, admitted to the cache,
/// written out by `cat` as done, reported done by a sync — and through which an upload's end is confirmed: the
/// bytes' digest against the strongest validator the remote offers (``Checksum``: the server's SHA-256, an
/// object's stored SHA-256 or single-part MD5 ETag), else their length alone, which the result says
/// (``ContentCheck/size``), so nothing checked by size is ever reported as verified.
package enum ContentVerification {
    /// The bytes' digest differs from the remote's.
    package struct Mismatch: Error, Sendable, Equatable {
        /// What the remote said the bytes hash to.
        package var expected: Checksum
        /// What they hash to (hex, the same function).
        package var actual: String
    }

    /// Checks a digest taken of the bytes (as they streamed, or read back) against `expected`: what they were
    /// checked by, or the mismatch. Without a validator the length, checked by the caller, is all there is.
    package static func check(actual: String?, against expected: Checksum?) -> Result<ContentCheck, Mismatch> {
        guard let expected else { return .success(.size) }
        guard let actual, actual.lowercased() == expected.hex else {
            return .failure(Mismatch(expected: expected, actual: actual ?? "not computed"))
        }
        return .success(expected.check)
    }

    /// Hashes `file` with the validator's function and checks it (see ``check(actual:against:)``); the file's
    /// SHA-256 comes back with the verdict when that was the function.
    package static func check(file path: String, against expected: Checksum?) throws(HTTPError) -> (
        verdict: Result<ContentCheck, Mismatch>, sha256: String?
    ) {
        guard let expected else { return (.success(.size), nil) }
        let hasher = SHA256Hasher(algorithm: expected.algorithm)
        try hasher.update(file: path, offset: 0, length: nil)
        let actual = hasher.finalizeHex()
        return (check(actual: actual, against: expected), expected.algorithm == .sha256 ? actual : nil)
    }
}

/// Digests of bytes as they pass (a `cat` to stdout, a cache entry being filled), fed from whatever thread the
/// engine writes them on: what ``ContentVerification`` checks a stream by, which cannot be read back.
package final class RunningDigest: Sendable {
    private let state: LockedValue<(sha256: SHA256Hasher, md5: SHA256Hasher?)>

    /// A SHA-256 of what passes, and an MD5 too when `md5` (what an object store's ETag is).
    package init(md5: Bool = false) {
        state = LockedValue((SHA256Hasher(), md5 ? SHA256Hasher(algorithm: .md5) : nil))
    }

    /// Adds bytes, in the order they were written.
    package func update(_ bytes: UnsafeRawBufferPointer) {
        state.withLock { value in
            value.sha256.update(bytes)
            value.md5?.update(bytes)
        }
    }

    /// The digests (SHA-256 hex, MD5 hex when kept); the digest is not fed afterwards.
    package func finalize() -> (sha256: String, md5: String?) {
        state.withLock { value in (value.sha256.finalizeHex(), value.md5?.finalizeHex()) }
    }

    /// The digest of `expected`'s function (see ``finalize()``), for ``ContentVerification/check(actual:against:)``.
    package func finalized(for expected: Checksum?) -> String? {
        let (sha256, md5) = finalize()
        return expected?.algorithm == .md5 ? md5 : sha256
    }
}

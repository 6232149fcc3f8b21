import FileModel
import Foundation
import HTTP
import Platform

extension ObjectMetadata {
    /// A file's MD5 and SHA-256 (the metadata every object carries) and, where the time was there, its parts' MD5s.
    package struct Digests: Sendable {
        /// Raw MD5.
        package var md5: [UInt8]
        /// Hex SHA-256.
        package var sha256: String
        /// Raw MD5s of parts (by part number) hashed while the whole file's MD5 was still being computed; the
        /// others are hashed as they are sent.
        package var partMD5s: [Int: [UInt8]] = [:]
    }

    /// A part of a file: its number in the upload and its bytes.
    package struct PartSpan: Sendable {
        /// S3's part number, from 1.
        package var number: Int
        /// The first byte.
        package var start: Int64
        /// Bytes.
        package var length: Int64

        /// A part as given.
        package init(number: Int, start: Int64, length: Int64) {
            self.number = number
            self.start = start
            self.length = length
        }
    }

    /// Files this small are hashed on the calling thread alone: a second thread would cost more than it saves.
    static let secondThreadMinimum: Int64 = 4 << 20

    /// The file's MD5 and SHA-256. The metadata goes with the upload's first request, so nothing is sent before
    /// both are known: the MD5 (the slower, about 1.8 s a GiB with OpenSSL against 0.8 for SHA-256) runs on a
    /// thread of its own beside the SHA-256 on the calling one, which then uses the time left to hash `parts`
    /// for their `Content-MD5`, from the last back (the first are sent first, hashed as they go).
    package static func digests(of file: String, parts: [PartSpan] = []) throws(HTTPError) -> Digests {
        guard (parts.last.map { $0.start + $0.length } ?? 0) >= secondThreadMinimum else {
            return try digestsInOnePass(of: file)
        }
        let md5 = LockedValue<Result<[UInt8], HTTPError>?>(nil)
        let md5Done = DispatchSemaphore(value: 0)
        Thread {
            let hasher = SHA256Hasher(algorithm: .md5)
            let result = Result { () throws(HTTPError) in
                try hasher.update(file: file, offset: 0, length: nil)
                return hasher.finalize()
            }
            md5.withLock { $0 = result }
            md5Done.signal()
        }.start()
        let ownSide = Result { () throws(HTTPError) in
            let sha256 = try SHA256Hasher.hash(file: file)
            return (sha256, try Self.partMD5s(of: file, parts, while: { md5.current == nil }))
        }
        md5Done.wait()  // the thread never outlives the call, even when this side failed
        let (sha256, partMD5s) = try ownSide.get()
        return Digests(md5: try md5.current!.get(), sha256: sha256, partMD5s: partMD5s)
    }

    /// The MD5s of `parts`, from the last back, as long as `going` says so before each.
    static func partMD5s(of file: String, _ parts: [PartSpan], while going: () -> Bool) throws(HTTPError)
        -> [Int: [UInt8]]
    {
        var digests: [Int: [UInt8]] = [:]
        for part in parts.reversed() {
            guard going() else { break }
            let hasher = SHA256Hasher(algorithm: .md5)
            try hasher.update(file: file, offset: part.start, length: part.length)
            digests[part.number] = hasher.finalize()
        }
        return digests
    }

    /// Both digests from one read of the file, on the calling thread.
    static func digestsInOnePass(of file: String) throws(HTTPError) -> Digests {
        let opened: OpenFile
        do { opened = try OpenFile(file, O_RDONLY) } catch { throw .localFile(path: file, message: "\(error)") }
        let fd = opened.descriptor
        defer { withExtendedLifetime(opened) {} }
        let md5 = SHA256Hasher(algorithm: .md5)
        let sha256 = SHA256Hasher()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = SystemCalls.retryingInterrupts { read(fd, buffer.baseAddress, buffer.count) }
            if count == 0 { break }
            if count < 0 { throw .localFile(path: file, message: String(cString: strerror(errno))) }
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            md5.update(bytes)
            sha256.update(bytes)
        }
        return Digests(md5: md5.finalize(), sha256: sha256.finalizeHex())
    }
}

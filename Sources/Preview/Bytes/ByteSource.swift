import Foundation

/// Random access to bytes that are not in a local file (a remote file read by HTTP ranges), for libarchive
/// and libvips to read through, one thread at a time: a zip is listed from its end (the central directory)
/// without touching the members, an image's header and metadata are read without its pixels.
public protocol ByteSource: AnyObject {
    /// The length in bytes.
    var size: Int64 { get }
    /// Copies up to `buffer.count` bytes from `offset` into `buffer` and returns how many; 0 only at the end.
    /// A thrown error ends the listing or read with that error.
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

extension ByteSource {
    /// Up to `length` bytes from `offset` (fewer only at the end), read in as many calls as the source needs.
    package func bytes(at offset: Int64, length: Int) throws -> Data {
        var data = Data(count: length)
        var filled = 0
        try data.withUnsafeMutableBytes { buffer in
            while filled < length {
                let count = try read(
                    at: offset + Int64(filled), into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                if count == 0 { break }
                filled += count
            }
        }
        return data.prefix(filled)
    }
}

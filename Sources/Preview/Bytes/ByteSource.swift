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

/// A compression function over 64-byte blocks, the part in which SHA-256, SHA-1 and MD5 differ.
protocol BlockCompression {
    /// Whether the message length and the digest are big-endian (the SHAs) or little-endian (MD5).
    static var bigEndian: Bool { get }
    /// Mixes one 64-byte block into the state.
    mutating func compress(_ block: UnsafeRawBufferPointer)
    /// Mixes whole 64-byte blocks into the state, in order.
    mutating func compress(blocks: UnsafeRawBufferPointer)
    /// The state as the digest's words.
    var words: [UInt32] { get }
}

extension BlockCompression {
    /// One block at a time.
    mutating func compress(blocks: UnsafeRawBufferPointer) {
        for start in stride(from: 0, to: blocks.count, by: 64) {
            compress(UnsafeRawBufferPointer(rebasing: blocks[start..<start + 64]))
        }
    }
}

/// The Merkle–Damgård frame the three digests share: buffering to whole blocks, and the final padding with the
/// message length in bits.
final class BlockDigest<Compression: BlockCompression>: DigestContext {
    private var compression: Compression
    private var pending = [UInt8]()
    private var length: UInt64 = 0

    init(_ compression: Compression) {
        self.compression = compression
        pending.reserveCapacity(64)
    }

    func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let taken = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<taken])
            offset = taken
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compression.compress($0) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = (bytes.count - offset) / 64 * 64
        if whole > 0 {
            compression.compress(blocks: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + whole]))
            offset += whole
        }
        pending.append(contentsOf: bytes[offset...])
    }

    func finalize() -> [UInt8] {
        let bits = length &* 8
        var tail = pending + [0x80]
        while tail.count % 64 != 56 { tail.append(0) }
        for index in 0..<8 {
            let shift = Compression.bigEndian ? (7 - index) * 8 : index * 8
            tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
        tail.withUnsafeBytes { compression.compress(blocks: $0) }
        return compression.words.flatMap { word in
            (0..<4).map { index in
                UInt8(truncatingIfNeeded: word >> UInt32(Compression.bigEndian ? (3 - index) * 8 : index * 8))
            }
        }
    }
}

extension UnsafeRawBufferPointer {
    /// The big-endian 32-bit word at `offset`: one unaligned load, not four byte reads.
    @inline(__always) func bigEndianWord(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The little-endian 32-bit word at `offset`: one unaligned load.
    @inline(__always) func littleEndianWord(at offset: Int) -> UInt32 {
        UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}

extension UInt32 {
    /// Rotated left by `count` bits.
    @inline(__always) func rotatedLeft(_ count: UInt32) -> UInt32 { self << count | self >> (32 - count) }
}

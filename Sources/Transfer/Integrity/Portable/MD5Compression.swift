import Foundation

/// MD5's compression function (RFC 1321): what S3 compares `Content-MD5` and ETags with, never a security check.
struct MD5Compression: BlockCompression {
    static let bigEndian = false
    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14,
        20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6,
        10, 15, 21,
    ]
    // floor(abs(sin(i + 1)) * 2^32), as the RFC tabulates them.
    private static let constants: [UInt32] = (0..<64).map { index in
        UInt32(truncatingIfNeeded: Int64((abs(sin(Double(index + 1))) * 4_294_967_296).rounded(.down)))
    }
    private var state: [UInt32] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476]

    var words: [UInt32] { state }

    mutating func compress(_ block: UnsafeRawBufferPointer) {
        var (a, b, c, d) = (state[0], state[1], state[2], state[3])
        for index in 0..<64 {
            var mix: UInt32
            let word: Int
            switch index {
            case 0..<16: (mix, word) = ((b & c) | (~b & d), index)
            case 16..<32: (mix, word) = ((d & b) | (~d & c), (5 * index + 1) % 16)
            case 32..<48: (mix, word) = (b ^ c ^ d, (3 * index + 5) % 16)
            default: (mix, word) = (c ^ (b | ~d), (7 * index) % 16)
            }
            mix = mix &+ a &+ Self.constants[index] &+ block.littleEndianWord(at: word * 4)
            (a, d, c) = (d, c, b)
            b = b &+ mix.rotatedLeft(Self.shifts[index])
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
    }
}

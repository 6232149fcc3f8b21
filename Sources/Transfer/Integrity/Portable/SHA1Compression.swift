/// SHA-1's compression function (FIPS 180-4, 6.1): what tus checksums may ask for, never a security check.
struct SHA1Compression: BlockCompression {
    static let bigEndian = true
    private var state: [UInt32] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0]
    private var schedule = [UInt32](repeating: 0, count: 80)

    var words: [UInt32] { state }

    mutating func compress(_ block: UnsafeRawBufferPointer) {
        for index in 0..<16 { schedule[index] = block.bigEndianWord(at: index * 4) }
        for index in 16..<80 {
            schedule[index] =
                (schedule[index - 3] ^ schedule[index - 8] ^ schedule[index - 14] ^ schedule[index - 16]).rotatedLeft(1)
        }
        var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
        for index in 0..<80 {
            let (mix, constant): (UInt32, UInt32) =
                switch index {
                case 0..<20: ((b & c) | (~b & d), 0x5a82_7999)
                case 20..<40: (b ^ c ^ d, 0x6ed9_eba1)
                case 40..<60: ((b & c) | (b & d) | (c & d), 0x8f1b_bcdc)
                default: (b ^ c ^ d, 0xca62_c1d6)
                }
            let next = a.rotatedLeft(5) &+ mix &+ e &+ constant &+ schedule[index]
            (e, d, c, b, a) = (d, c, b.rotatedLeft(30), a, next)
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
    }
}

/// SHA-256's compression function (FIPS 180-4, 6.2).
struct SHA256Compression: BlockCompression {
    static let bigEndian = true
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private var state: Working = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    private var schedule = [UInt32](repeating: 0, count: 64)

    var words: [UInt32] { [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] }

    mutating func compress(_ block: UnsafeRawBufferPointer) { compress(blocks: block) }

    /// Whole 64-byte blocks into the state. The constants and the schedule are read through buffer pointers, taken
    /// once for all the blocks: an array subscript here (a bounds check, the constants' lazy global) cost a fifth
    /// of the time.
    mutating func compress(blocks: UnsafeRawBufferPointer) {
        var state = self.state
        Self.roundConstants.withUnsafeBufferPointer { constants in
            schedule.withUnsafeMutableBufferPointer { words in
                for start in stride(from: 0, to: blocks.count, by: 64) {
                    let block = UnsafeRawBufferPointer(rebasing: blocks[start..<start + 64])
                    let sums = Self.rounds(block, from: state, constants: constants, words: words)
                    state = (
                        state.0 &+ sums.0, state.1 &+ sums.1, state.2 &+ sums.2, state.3 &+ sums.3,
                        state.4 &+ sums.4, state.5 &+ sums.5, state.6 &+ sums.6, state.7 &+ sums.7
                    )
                }
            }
        }
        self.state = state
    }

    /// The 64 rounds over `block` from `state`; the eight working variables at their end. Eight rounds to a turn
    /// of the loop, the variables' roles rotating from one round to the next (no round moves all eight).
    private static func rounds(
        _ block: UnsafeRawBufferPointer, from state: Working, constants: UnsafeBufferPointer<UInt32>,
        words: UnsafeMutableBufferPointer<UInt32>
    ) -> Working {
        for index in 0..<16 { words[index] = block.bigEndianWord(at: index * 4) }
        var (a, b, c, d, e, f, g, h) = state
        for index in stride(from: 0, to: 64, by: 8) {
            // The schedule's next eight words beside the rounds that use them: the two chains interleave.
            if index >= 16 { for next in index..<index + 8 { schedule(next, words) } }
            round(a, b, c, &d, e, f, g, &h, constants[index] &+ words[index])
            round(h, a, b, &c, d, e, f, &g, constants[index + 1] &+ words[index + 1])
            round(g, h, a, &b, c, d, e, &f, constants[index + 2] &+ words[index + 2])
            round(f, g, h, &a, b, c, d, &e, constants[index + 3] &+ words[index + 3])
            round(e, f, g, &h, a, b, c, &d, constants[index + 4] &+ words[index + 4])
            round(d, e, f, &g, h, a, b, &c, constants[index + 5] &+ words[index + 5])
            round(c, d, e, &f, g, h, a, &b, constants[index + 6] &+ words[index + 6])
            round(b, c, d, &e, f, g, h, &a, constants[index + 7] &+ words[index + 7])
        }
        return (a, b, c, d, e, f, g, h)
    }

    /// The schedule's word `index` (16 or more) from the ones before it.
    @inline(__always)
    private static func schedule(_ index: Int, _ words: UnsafeMutableBufferPointer<UInt32>) {
        let early = words[index - 15], late = words[index - 2]
        let s0 = early.rotatedLeft(25) ^ early.rotatedLeft(14) ^ (early >> 3)
        let s1 = late.rotatedLeft(15) ^ late.rotatedLeft(13) ^ (late >> 10)
        words[index] = words[index - 16] &+ s0 &+ words[index - 7] &+ s1
    }

    /// One round, its variables named as FIPS 180-4 names them at the round: `d` becomes the next `e`, `h` the
    /// next `a` (the others only change names).
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
        _ h: inout UInt32, _ constantAndWord: UInt32
    ) {
        let s1 = e.rotatedLeft(26) ^ e.rotatedLeft(21) ^ e.rotatedLeft(7)
        let choice = g ^ (e & (f ^ g))
        let first = h &+ s1 &+ choice &+ constantAndWord
        let s0 = a.rotatedLeft(30) ^ a.rotatedLeft(19) ^ a.rotatedLeft(10)
        let majority = (a & b) | (c & (a | b))
        d &+= first
        h = first &+ s0 &+ majority
    }

    /// The eight working variables.
    private typealias Working = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
}

import Foundation

/// Content for the tests' files, made a 64-bit word at a time.
///
/// The tests run as a debug build, where `Data((0..<n).map { … })` costs tens of nanoseconds a byte through
/// unspecialized generic code, and `UInt8.random(in:using:)` with the system generator costs a system call a byte:
/// the suite spent a minute and a half of CPU making bytes that way.
public enum TestBytes {
    /// `count` bytes fixed by `seed`: the high bits of a 64-bit linear congruential sequence (Knuth's MMIX
    /// constants), so nothing a server or a link does can compress or deduplicate them, and two seeds differ.
    public static func pattern(_ count: Int, seed: UInt64 = 1) -> Data {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var data = Data(count: count)
        data.withUnsafeMutableBytes { bytes in
            var offset = 0
            while offset < count {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                var word = (state >> 32 | state << 32).littleEndian
                let length = min(8, count - offset)
                withUnsafeBytes(of: &word) { source in
                    bytes.baseAddress!.advanced(by: offset).copyMemory(from: source.baseAddress!, byteCount: length)
                }
                offset += length
            }
        }
        return data
    }

    /// `count` bytes from the kernel's random source, read at once (`/dev/urandom`).
    public static func random(_ count: Int) -> Data {
        guard let source = FileHandle(forReadingAtPath: "/dev/urandom") else { preconditionFailure("/dev/urandom") }
        defer { try? source.close() }
        var data = Data(capacity: count)
        while data.count < count {
            guard let piece = try? source.read(upToCount: min(count - data.count, 1 << 24)), !piece.isEmpty else {
                preconditionFailure("/dev/urandom ended")
            }
            data.append(piece)
        }
        return data
    }
}

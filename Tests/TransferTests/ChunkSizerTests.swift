import HTTP
import Testing

@testable import Officer
@testable import Transfer

/// Chunk sizes follow the rate so that an interruption costs seconds, whatever the link.
@Suite struct ChunkSizerTests {
    @Test func growsOnAFastLinkAndShrinksOnASlowOne() {
        var sizer = ChunkSizer()
        #expect(sizer.size == 1 << 20)
        // Loopback speed: fourfold a step, up to the ceiling.
        for _ in 0..<10 { sizer.succeeded(bytes: sizer.size, seconds: Double(sizer.size) / 1e9) }
        #expect(sizer.size == ChunkSizer.defaultCeiling)
        // A phone link at 1 MiB/s: back to about three seconds of it, a quarter a step.
        for _ in 0..<10 { sizer.succeeded(bytes: sizer.size, seconds: Double(sizer.size) / Double(1 << 20)) }
        #expect(sizer.size == 3 << 20)
        // At 20 MiB/s a chunk is about 60 MiB: what a kill can cost is about three seconds of transfer.
        for _ in 0..<10 { sizer.succeeded(bytes: sizer.size, seconds: Double(sizer.size) / Double(20 << 20)) }
        #expect(sizer.size == 60 << 20)
        sizer.failed()
        #expect(sizer.size == 30 << 20)
    }

    /// An upload goes on from the last body the server took: the creation's first chunk (1 MiB) grows fourfold
    /// as a chunk would; a chunk of the file before at 20 MiB/s starts the next file at its size, not at 1 MiB.
    @Test func aNewPartGoesOnFromTheLastBodyTheServerTook() {
        let creation = ChunkSizer(ceiling: nil, after: BodyTiming(bytes: 1 << 20, seconds: 0.01))
        #expect(creation.size == 4 << 20 && creation.adaptive)
        let fileBefore = ChunkSizer(ceiling: nil, after: BodyTiming(bytes: 60 << 20, seconds: 3))
        #expect(fileBefore.size == 60 << 20)
        // A server's known body limit still caps it.
        #expect(ChunkSizer(ceiling: 8 << 20, after: BodyTiming(bytes: 60 << 20, seconds: 3)).size == 8 << 20)
    }

    @Test func staysWithinFloorCeilingAndServerLimits() {
        var sizer = ChunkSizer()
        for _ in 0..<10 { sizer.succeeded(bytes: 1024, seconds: 10) }
        #expect(sizer.size == ChunkSizer.floor)
        var limited = ChunkSizer(ceiling: 1 << 20)
        let first = limited.tooLarge()
        #expect(first && limited.size == 512 << 10 && limited.ceiling == 512 << 10)
        for _ in 0..<5 { limited.succeeded(bytes: limited.size, seconds: 0.001) }
        #expect(limited.size == 512 << 10, "never above what the server refused")
        let second = limited.tooLarge()
        #expect(second && limited.size == ChunkSizer.floor)
        let third = limited.tooLarge()
        #expect(!third, "a server refusing the floor is an error")
        // A fixed size does not adapt, but still shrinks below what a cut connection let through.
        var fixed = ChunkSizer(fixed: 4 << 20)
        fixed.succeeded(bytes: 4 << 20, seconds: 0.001)
        #expect(fixed.size == 4 << 20)
        fixed.cut(after: 600_000)
        #expect(fixed.size == 256 << 10)
    }

    /// A link that cuts connections after 2 MB: once cut, chunks never grow back above what got through, however
    /// fast the chunks that pass go (growing back was cut again each time: 2.5–5.7× the file sent).
    @Test func aCutLowersTheCeilingForGood() {
        var sizer = ChunkSizer()
        for _ in 0..<3 { sizer.succeeded(bytes: sizer.size, seconds: 0.01) }
        #expect(sizer.size > 2_000_000)
        sizer.cut(after: 1_500_000)
        #expect(sizer.size <= 750_000)
        for _ in 0..<10 { sizer.succeeded(bytes: sizer.size, seconds: 0.001) }
        #expect(sizer.size <= 750_000, "never above what the cut left")
        #expect(sizer.predictedNext <= 750_000)
    }
}

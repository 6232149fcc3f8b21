import HTTP

/// Sizes tus PATCH requests from the rate they go at, so that each takes about ``targetSeconds``: a killed or
/// cut upload then loses seconds of work, not a fixed 64 MiB, on a phone link and on loopback alike.
///
/// It starts at ``initial``, grows (at most fourfold a step) while chunks finish fast, shrinks when they are slow
/// or fail, and never leaves [``floor``, ``ceiling``]. A server's body limit (a 413) lowers the ceiling for good.
/// A fixed size (`--chunk-size`) turns the adaptation off.
struct ChunkSizer: Sendable {
    /// The first chunk.
    static let initial: Int64 = 1 << 20
    /// No chunk is smaller (a request costs a round trip).
    static let floor: Int64 = 256 << 10
    /// No chunk is larger, however fast the link (the checksum of a chunk is computed before it is sent).
    static let defaultCeiling: Int64 = 512 << 20
    /// What one chunk should take.
    static let targetSeconds = 3.0
    /// Sizes are multiples of this.
    static let granule: Int64 = 64 << 10

    private(set) var size: Int64
    private(set) var ceiling: Int64
    let adaptive: Bool
    /// How the last success changed the size: while a fast link keeps growing the chunks, the next one is likely
    /// to grow as much again, so its checksum is computed ahead at that size.
    private var lastGrowth: Int64 = 1

    /// The size the chunk after the current one will most likely have (for computing its checksum ahead).
    var predictedNext: Int64 { min(ceiling, size * lastGrowth) }

    /// Adaptive sizes below `ceiling` (a server's known limit), or a fixed `size`.
    init(fixed: Int64? = nil, ceiling: Int64? = nil) {
        let top = max(Self.floor, ceiling ?? Self.defaultCeiling)
        if let fixed {
            self.ceiling = min(fixed, top)
            size = self.ceiling
            adaptive = false
        } else {
            self.ceiling = top
            size = min(Self.initial, top)
            adaptive = true
        }
    }

    /// Adaptive sizes below `ceiling` that go on from a request to the same server: `bytes` that went through in
    /// `seconds` (the creation request that carried the first chunk, or the last chunk of an upload before), as if
    /// it had been this part's chunk before: the first chunk grows from it by the usual rule (at most fourfold)
    /// instead of starting again from ``initial``.
    init(ceiling: Int64?, after measured: BodyTiming) {
        self.init(ceiling: ceiling)
        set(measured.bytes)
        succeeded(bytes: measured.bytes, seconds: measured.seconds)
    }

    /// A chunk of `bytes` went through in `seconds`: aim the next one at ``targetSeconds`` at that rate.
    mutating func succeeded(bytes: Int64, seconds: Double) {
        guard adaptive, bytes > 0 else { return }
        let rate = Double(bytes) / max(seconds, 0.001)
        let ideal = Int64(rate * Self.targetSeconds)
        let before = size
        set(min(max(ideal, size / 4), size * 4))
        lastGrowth = size > before ? max(1, size / max(1, before)) : 1
    }

    /// A chunk failed: the link may be worse than measured; halve.
    mutating func failed() {
        lastGrowth = 1
        guard adaptive else { return }
        set(size / 2)
    }

    /// A chunk was cut after only `sent` bytes got through and the server kept none: no later chunk is larger
    /// than what got through, fixed size or not (the ceiling comes down for good), or a link that cuts early would
    /// never pass one, and growing back after each success would be cut again and again (each cut costs a chunk).
    /// What the sender counts as sent includes what the socket buffered, more than arrived; so each cut halves
    /// below that and keeps the result as the ceiling, until chunks pass.
    mutating func cut(after sent: Int64) {
        lastGrowth = 1
        size = min(ceiling, max(Self.floor, min(size, sent) / 2 / Self.granule * Self.granule))
        ceiling = size
    }

    /// The server refused a chunk as too large: halve, and never go above that again. Returns false when the
    /// size cannot go lower (the server refuses even the floor).
    mutating func tooLarge() -> Bool {
        guard size > Self.floor else { return false }
        ceiling = max(Self.floor, size / 2 / Self.granule * Self.granule)
        size = ceiling
        return true
    }

    private mutating func set(_ value: Int64) {
        size = min(ceiling, max(Self.floor, value / Self.granule * Self.granule))
    }
}

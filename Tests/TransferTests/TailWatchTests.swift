import Testing

@testable import Transfer

/// When a download's version question goes out: about one round trip (the first byte's time) before its last byte.
@Suite struct TailWatchTests {
    /// One observation (a mutating call cannot stand inside `#expect`).
    private func told(_ watch: inout TailWatch, remaining: Int64, received: Int64, at seconds: Double) -> Bool {
        watch.observe(remaining: remaining, received: received, at: seconds)
    }

    @Test func theMomentIsWhenTheRestWouldTakeTheFirstBytesTime() {
        var watch = TailWatch()
        // The first byte after 50 ms: the round trip. Then 20 MB a second, 10 MB in all.
        #expect(!told(&watch, remaining: 10_000_000, received: 0, at: 0.01))
        #expect(!told(&watch, remaining: 9_990_000, received: 10_000, at: 0.05))
        #expect(!told(&watch, remaining: 5_990_000, received: 4_010_000, at: 0.25))
        // 1.2 MB left: 60 ms at this rate, more than the round trip.
        #expect(!told(&watch, remaining: 1_190_000, received: 8_810_000, at: 0.49))
        // 0.99 MB left: under 50 ms.
        #expect(told(&watch, remaining: 990_000, received: 9_010_000, at: 0.50))
        #expect(watch.reached)
        // Told once.
        #expect(!told(&watch, remaining: 10_000, received: 9_990_000, at: 0.549))
        #expect(!told(&watch, remaining: 0, received: 10_000_000, at: 0.55))
    }

    @Test func nothingLeftIsTheMomentEvenWithoutARate() {
        var watch = TailWatch()
        #expect(told(&watch, remaining: 0, received: 4_096, at: 0.001))
        var resumedWhole = TailWatch()
        #expect(told(&resumedWhole, remaining: 0, received: 0, at: 0))
    }

    @Test func oneObservationGivesNoRateAndBytesFromAnEarlierRunAreNotCounted() {
        var watch = TailWatch()
        // A resumed download: the bytes of this run only (received) make the rate.
        #expect(!told(&watch, remaining: 100, received: 1, at: 1.0))
        // The rate is 1 byte a second and the round trip 1 s: 100 bytes are too many.
        #expect(!told(&watch, remaining: 99, received: 2, at: 2.0))
        #expect(told(&watch, remaining: 1, received: 3, at: 3.0))
    }

    @Test func aStalledTransferNeverSeesItsMoment() {
        var watch = TailWatch()
        #expect(!told(&watch, remaining: 1_000, received: 10, at: 0.1))
        #expect(!told(&watch, remaining: 1_000, received: 10, at: 0.1))
        #expect(!told(&watch, remaining: 1_000, received: 10, at: 60))
        #expect(!watch.reached)
    }

    /// Seen here under load: the first byte after 0.5 s, then a rate limit's allowance for that wait (1.5 MB) at
    /// once. Taken for a rate, it sent the question with 10 of 12 MB still to come.
    @Test func whatArrivesAtOnceAfterTheFirstByteIsNoRate() {
        var watch = TailWatch()
        #expect(!told(&watch, remaining: 12_000_000, received: 16_000, at: 0.5))
        #expect(!told(&watch, remaining: 10_500_000, received: 1_500_000, at: 0.51))
        // Then 3 MB a second: the moment is with 1.5 MB left (half a second's worth), not before.
        var received: Int64 = 1_500_000
        var seconds = 0.51
        var toldAt: Int64?
        while received < 12_000_000, toldAt == nil {
            received += 30_000
            seconds += 0.01
            if told(&watch, remaining: 12_000_000 - received, received: received, at: seconds) {
                toldAt = 12_000_000 - received
            }
        }
        #expect((1_400_000...1_500_000).contains(toldAt ?? 0), "told with \(toldAt ?? -1) bytes left")
    }
}

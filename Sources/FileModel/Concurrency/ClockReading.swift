/// Seconds since it was made, read from a clock: how a rule that measures how long something has lasted (an
/// outage, a settle time) reads the one injected `any Clock<Duration>`, whose instants cannot be subtracted
/// without knowing the clock's type.
package struct ClockReading: Sendable {
    private let elapsedNow: @Sendable () -> Duration

    /// Starts reading `clock` now.
    package init(_ clock: some Clock<Duration>) {
        let origin = clock.now
        elapsedNow = { origin.duration(to: clock.now) }
    }

    /// Time since the reading began.
    package var elapsed: Duration { elapsedNow() }

    /// Seconds since the reading began.
    package var seconds: Double {
        let (whole, fraction) = elapsedNow().components
        return Double(whole) + Double(fraction) / 1e18
    }
}

import Foundation

/// Waits for a condition by polling, so tests that interrupt a transfer midway do it once the transfer
/// has really got somewhere, however busy the machine is.
public enum Eventually {
    /// Polls `condition` every 50 ms for up to `timeout` seconds; returns whether it became true.
    @discardableResult
    public static func wait(timeout: Double = 30, _ condition: () throws -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if (try? condition()) == true { return true }
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
        return false
    }
}

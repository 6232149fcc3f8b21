import Foundation

/// A server the warm starter forked (``WarmServerStarter``): not this process's child, so it is watched through
/// the read end of the FIFO that is its stdout. The server is that FIFO's only writer (its own subprocesses get
/// other stdouts), so the end of the FIFO is the end of the server, and a signal goes to its pid only while the
/// FIFO is open: an ended server's pid can have been given to another process since (pid_max is 32768 here).
final class ForkedServer: Sendable {
    /// The server's pid.
    let pid: Int32
    private let descriptor: Int32

    /// The server `pid`, writing into `descriptor` (non-blocking, owned from here on).
    init(pid: Int32, descriptor: Int32) {
        self.pid = pid
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Whether it runs: its stdout has not ended.
    var isRunning: Bool { !Self.ended(descriptor, timeout: 0) }

    /// Sends `signal` while it runs.
    func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits up to `timeout` seconds for its end; whether it ended.
    @discardableResult
    func waitForEnd(timeout: Double) -> Bool { Self.ended(descriptor, timeout: timeout) }

    /// What the next wait on the FIFO brought.
    private enum Chunk {
        case bytes(ArraySlice<UInt8>)
        /// Its writers are all gone.
        case end
        case timedOut
    }

    /// The next bytes, the end or the deadline, whichever comes first: each wait is for the bytes themselves.
    private static func next(_ descriptor: Int32, by deadline: Date) -> Chunk {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watched, 1, Int32(max(0, deadline.timeIntervalSinceNow) * 1000))
            if ready == 0 { return .timedOut }
            if ready < 0 { if errno == EINTR { continue } else { return .end } }
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 { return .bytes(buffer[0..<count]) }
            if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            return .end
        }
    }

    /// Whether the FIFO's writers are all gone within `timeout` seconds (what arrives meanwhile is dropped).
    private static func ended(_ descriptor: Int32, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            switch next(descriptor, by: deadline) {
            case .bytes: continue
            case .end: return true
            case .timedOut: return false
            }
        }
    }

    /// The lines read from `descriptor` up to the first for which `last` holds, the FIFO's end, or `timeout`
    /// seconds.
    static func lines(from descriptor: Int32, until last: (String) -> Bool, timeout: Double) -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var pending = Data()
        var lines: [String] = []
        while true {
            switch next(descriptor, by: deadline) {
            case .timedOut: return lines + ["(no line within \(Int(timeout)) s)"]
            case .end: return lines + [String(decoding: pending, as: UTF8.self)].filter { !$0.isEmpty }
            case .bytes(let bytes):
                pending.append(contentsOf: bytes)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[pending.index(after: newline)...])
                    lines.append(line)
                    if last(line) { return lines }
                }
            }
        }
    }
}

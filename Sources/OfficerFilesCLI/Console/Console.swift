import FileModel
import Foundation

/// Where the CLI writes: stdout for results, stderr for messages and progress. Thread-safe.
public final class Console: @unchecked Sendable {
    private let lock = NSLock()
    private let outputFD: Int32
    private let errorFD: Int32
    /// stdout is a terminal.
    public let outputIsTerminal: Bool
    /// stderr is a terminal (progress bars are drawn there).
    public let errorIsTerminal: Bool
    /// Colour allowed: a terminal and no `NO_COLOR` in the environment.
    public let colorEnabled: Bool

    /// A console over the process's stdout and stderr.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment, outputFD: Int32 = 1, errorFD: Int32 = 2) {
        self.outputFD = outputFD
        self.errorFD = errorFD
        outputIsTerminal = isatty(outputFD) == 1
        errorIsTerminal = isatty(errorFD) == 1
        colorEnabled = errorIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    // Every line of text goes out with control characters escaped (``TerminalText``), line breaks and tabs kept:
    // names, messages and file contents from a server cannot drive the terminal, whichever command prints them.
    // JSON stays exact (its escapes are JSON's own). Only `cat`'s bytes and progress redraws go out unchanged.

    /// Writes a line (a newline is added) to stdout.
    public func print(_ text: String) { write(outputFD, TerminalText.escaped(text, .block) + "\n") }

    /// Writes text without adding a newline to stdout (control characters escaped, line breaks kept).
    public func printRaw(_ text: String) { write(outputFD, TerminalText.escaped(text, .block)) }

    /// Writes a line to stderr; the whole message is one line, so a line break inside it is escaped too.
    public func message(_ text: String) { write(errorFD, TerminalText.escaped(text, .name) + "\n") }

    /// Writes text as it is to stderr (progress redraws, which escape the names they show themselves).
    public func messageRaw(_ text: String) { write(errorFD, text) }

    /// Writes raw bytes to stdout (`cat`).
    public func writeOutput(_ data: Data) {
        lock.withLock { data.withUnsafeBytes { Self.writeAll(outputFD, $0) } }
    }

    private func write(_ fd: Int32, _ text: String) {
        lock.withLock {
            var text = text
            text.withUTF8 { Self.writeAll(fd, UnsafeRawBufferPointer($0)) }
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return  // EPIPE and friends: the reader went away; nothing useful to do.
            }
            offset += written
        }
    }
}

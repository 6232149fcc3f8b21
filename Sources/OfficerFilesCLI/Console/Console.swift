import FileModel
import Foundation
import Platform

/// Where the CLI writes: stdout for results, stderr for messages and progress. Thread-safe.
package final class Console: Sendable {
    private let outputFD: Int32
    private let errorFD: Int32
    /// What the writes share, held while one writes: a line goes out whole, and `cat`'s escaping keeps its place.
    private let writing = LockedValue(Writing())

    /// The progress display drawing on stderr now, if any: a message goes through it, which clears its frame,
    /// writes the line and draws the frame again below, so no command has to remember to (a redraw would move
    /// up over a line written beside the frame). Weak: a display that is gone writes nothing.
    private let display = LockedValue(DisplayReference())
    /// The run's local paths as typed, which messages show them as.
    private let typedPaths = LockedValue(TypedPaths())

    private struct Writing {
        var escaper = TerminalByteEscaper()
        var outputWasClosed = false
    }

    private struct DisplayReference {
        weak var reporter: ProgressReporter?
    }
    /// stdout is a terminal.
    package let outputIsTerminal: Bool
    /// stderr is a terminal (progress bars are drawn there).
    package let errorIsTerminal: Bool
    /// Colour allowed: a terminal and no `NO_COLOR` in the environment.
    package let colorEnabled: Bool

    /// A console over the process's stdout and stderr.
    package init(
        environment: [String: String] = ProcessInfo.processInfo.environment, outputFD: Int32 = 1, errorFD: Int32 = 2
    ) {
        self.outputFD = outputFD
        self.errorFD = errorFD
        outputIsTerminal = isatty(outputFD) == 1
        errorIsTerminal = isatty(errorFD) == 1
        colorEnabled = errorIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    // Every line of text goes out with control characters escaped (``TerminalText``), line breaks and tabs kept:
    // names, messages and file contents from a server cannot drive the terminal, whichever command prints them.
    // JSON stays exact (its escapes are JSON's own). `cat`'s bytes go out unchanged into a pipe or a file and
    // escaped by the same rule on a terminal; progress redraws escape the names they show themselves.

    /// Where results go (stdout, or what the console was made over): `cat` writes a file's bytes there itself.
    package var outputDescriptor: Int32 { outputFD }

    /// Writes a line (a newline is added) to stdout.
    package func print(_ text: String) { write(outputFD, TerminalText.escaped(text, .block) + "\n") }

    /// Writes text without adding a newline to stdout (control characters escaped, line breaks kept).
    package func printRaw(_ text: String) { write(outputFD, TerminalText.escaped(text, .block)) }

    /// Writes a line to stderr; the whole message is one line, so a line break inside it is escaped too. While a
    /// progress display is shown (``showMessages(through:)``), the line goes through it.
    package func message(_ text: String) {
        let text = typedPaths.withLock { $0 }.shown(text)
        if let reporter = display.withLock({ $0.reporter }) { return reporter.message(text) }
        write(errorFD, TerminalText.escaped(text, .name) + "\n")
    }

    /// Shows the local paths in every ``message(_:)`` from now on as `paths` has them typed.
    package func showPaths(asTyped paths: TypedPaths) {
        typedPaths.withLock { $0 = paths }
    }

    /// Sends every ``message(_:)`` through `reporter` from now on (the latest display made for this console).
    package func showMessages(through reporter: ProgressReporter) {
        display.withLock { $0.reporter = reporter }
    }

    /// Writes text as it is to stderr (progress redraws, which escape the names they show themselves).
    package func messageRaw(_ text: String) { write(errorFD, text) }

    /// Writes a file's bytes to stdout (`cat`): exactly, unless stdout is a terminal, where control bytes are
    /// escaped (``TerminalByteEscaper``) so nothing a server sends can drive it. ``finishOutput()`` ends it.
    package func writeOutput(_ data: Data) {
        writing.withLock { writing in
            guard outputIsTerminal else { return data.withUnsafeBytes { writeAll(outputFD, $0, &writing) } }
            let shown = writing.escaper.escape(data)
            shown.withUnsafeBytes { writeAll(outputFD, $0, &writing) }
        }
    }

    /// Ends a run of ``writeOutput(_:)``: a character cut at the end is shown escaped.
    package func finishOutput() {
        writing.withLock { writing in
            let rest = writing.escaper.finish()
            rest.withUnsafeBytes { writeAll(outputFD, $0, &writing) }
        }
    }

    /// The reader of stdout has gone (`| head` closed its end of the pipe): what a command failed to write
    /// there is no failure to report, and the program ends quietly as a program killed by SIGPIPE would.
    package var outputReaderIsGone: Bool {
        if writing.withLock({ $0.outputWasClosed }) { return true }
        var entry = pollfd(fd: outputFD, events: Int16(POLLOUT), revents: 0)
        // A pipe whose reader closed polls as an error (a hang-up where the system says so instead).
        return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLERR | POLLHUP) != 0
    }

    private func write(_ fd: Int32, _ text: String) {
        writing.withLock { writing in
            var text = text
            text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0), &writing) }
        }
    }

    /// Writes every byte; a reader that went away (EPIPE) ends it, remembered for ``outputReaderIsGone``.
    private func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ writing: inout Writing) {
        if Self.writeAll(fd, bytes) == EPIPE, fd == outputFD { writing.outputWasClosed = true }
    }

    /// Writes every byte; the errno that stopped it (EPIPE and friends: the reader went away), or 0.
    @discardableResult
    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        SystemCalls.writeAll(fd, bytes) ?? 0
    }
}

import FileModel
import Foundation
import Officer

/// How a command that starts a server job ends: following it to the end with a progress line (`--wait`, the
/// default when stderr is a terminal), or printing its id (`--detach`, the default otherwise) to follow later
/// with `jobs wait`.
enum JobFollower {
    /// The options of every command that starts a job.
    static let options = [
        OptionSpec(["--wait"], help: "follow the job to its end (the default on a terminal)"),
        OptionSpec(["--detach"], help: "print the job's id and return at once (the default otherwise)"),
    ]

    /// The job as it ended, or nil when detached. A job that failed or was cancelled is thrown as its error.
    static func settle(_ job: Job, files: OfficerFiles, _ parsed: ParsedCommand, _ context: CommandContext) async throws
        -> Job?
    {
        // A job is followed on the server that runs it: a named remote's, when it was started there.
        let server = try files.server(named: job.base?.remote)
        if job.state.isFinal { return try await follow(job, on: server, context: context) }
        if parsed.flag("wait"), parsed.flag("detach") { throw CLIError.usage("give --wait or --detach, not both") }
        let wait = parsed.flag("wait") || (!parsed.flag("detach") && context.console.errorIsTerminal)
        guard wait else {
            if context.global.json {
                context.printJSON(JobRecord(job))
            } else {
                context.console.print(job.id)
                if !context.global.quiet {
                    context.console.message(
                        "\(job.kind) \(job.shownTarget): runs on the server as job \(job.id); follow it with: \(waitCommand(job))"
                    )
                }
            }
            return nil
        }
        return try await follow(job, on: server, context: context)
    }

    /// The command that follows `job` again from any process (its remote named when it is not the default).
    static func waitCommand(_ job: Job) -> String {
        let remote = job.base?.remote.map { $0 == "officer" ? "" : "--remote \(ShellWord.quoted($0)) " } ?? ""
        return "officer-files jobs wait \(remote)\(job.id)"
    }

    /// Follows a job to its end with a progress line; Ctrl-C stops following (the job goes on) and says how
    /// to come back to it.
    static func follow(_ job: Job, on server: OfficerServer, context: CommandContext, requireSuccess: Bool = true)
        async throws -> Job
    {
        let line = JobLine(console: context.console, quiet: context.global.quiet || context.global.json)
        let operation = server.follow(job, requireSuccess: requireSuccess)
        for await case .changed(let current) in operation { line.show(current) }
        do {
            let final = try await operation.value
            line.end()
            return final
        } catch {
            line.end()
            if ErrorCategory.of(error) == .cancelled || Task.isCancelled {
                throw CLIError.refused(
                    "stopped following; job \(job.id) goes on on the server: \(waitCommand(job))",
                    .interrupted)
            }
            throw error
        }
    }
}

/// One redrawn line for a job on a terminal; a line per state change otherwise.
final class JobLine: Sendable {
    private let console: Console
    private let quiet: Bool
    private let shown = LockedValue(Shown())

    /// What the line has shown so far.
    private struct Shown {
        var drawn = false
        var lastState: JobState?
        var lastPlain = Date.distantPast
    }

    init(console: Console, quiet: Bool) {
        self.console = console
        self.quiet = quiet
    }

    func show(_ job: Job) {
        // A final state is said by the command's own last line (or its error).
        guard !quiet, !job.state.isFinal else { return }
        let text = Self.describe(job)
        let console = console
        shown.withLock { shown in
            if console.errorIsTerminal {
                var size = winsize()
                let width = ioctl(2, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 10 ? Int(size.ws_col) - 1 : 79
                console.messageRaw("\r\u{1B}[K" + TerminalText.escaped(String(text.prefix(width)), .name))
                shown.drawn = true
            } else if job.state != shown.lastState || Date().timeIntervalSince(shown.lastPlain) >= 5 {
                console.message(text)
                shown.lastPlain = Date()
            }
            shown.lastState = job.state
        }
    }

    func end() {
        let console = console
        shown.withLock { shown in
            if shown.drawn { console.messageRaw("\r\u{1B}[K") }
            shown.drawn = false
        }
    }

    /// `transcode /v.mkv: running, 45% (27 of 60 s), transcoding`.
    static func describe(_ job: Job) -> String {
        var text = "\(job.kind) \(job.shownTarget): \(job.state.rawValue)"
        let progress = job.progress
        if let fraction = progress.fraction, job.state == .running {
            text += ", \(Int(fraction * 100))%"
            if let done = progress.done, let total = progress.total {
                switch progress.unit {
                case "bytes":
                    text += " (\(ByteCountFormat.string(Int64(done))) of \(ByteCountFormat.string(Int64(total))))"
                case "seconds":
                    text += " (\(DurationFormat.string(seconds: done)) of \(DurationFormat.string(seconds: total)))"
                default: break
                }
            }
        } else if let done = progress.done, progress.unit == "bytes", done > 0, job.state == .running {
            text += ", \(ByteCountFormat.string(Int64(done)))"
        }
        if let message = progress.message, !message.isEmpty, message != job.state.rawValue { text += ", \(message)" }
        if job.state == .failed, let error = job.error { text += ": \(error.message)" }
        return text
    }
}

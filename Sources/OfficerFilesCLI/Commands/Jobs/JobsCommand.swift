import FileModel
import Foundation
import Officer

/// `jobs list|wait|cancel`: the server's background jobs (extractions, transcodes, fetches, long AI actions).
enum JobsCommand: Command {
    static let spec = CommandSpec(
        "jobs", summary: "list, wait for or cancel the server's background jobs",
        discussion: """
            Long server operations (extract, transcode, fetch, a long transcription) run as jobs on the server:
            they go on when this program stops, and `jobs wait` follows them again from any process. `jobs` alone
            is `jobs list`.
            """,
        subcommands: [
            CommandSpec("list", summary: "your jobs, oldest first", options: [remoteOption]),
            CommandSpec(
                "wait", summary: "follow jobs to their end; the exit status says whether all of them succeeded",
                options: [remoteOption], positionals: [PositionalSpec("ID", help: "a job id", variadic: true)]),
            CommandSpec(
                "cancel", summary: "stop jobs (the server removes what they wrote)",
                options: [remoteOption], positionals: [PositionalSpec("ID", help: "a job id", variadic: true)]),
        ],
        defaultSubcommand: "list")

    /// Jobs run on one server: a named Officer remote's are asked of it.
    static let remoteOption = OptionSpec(
        ["--remote"], .value(placeholder: "NAME"),
        help: "the jobs of a named Officer remote (remote add NAME --officer URL); default: the default server")

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let files = try context.files()
        let remote = parsed.value("remote")
        let server = try files.server(named: remote)
        switch parsed.path.last {
        case "wait": try await wait(parsed.positionals, on: remote, server, context)
        case "cancel":
            for id in parsed.positionals {
                let job = try await server.cancelJob(id: id)
                if context.global.json {
                    context.printJSON(JobRecord(job))
                } else {
                    context.say("job \(id): \(job.state.rawValue)")
                }
            }
        default: try await list(server, context)
        }
    }

    static func list(_ server: OfficerServer, _ context: CommandContext) async throws {
        let jobs = try await server.jobs()
        if context.global.json {
            for job in jobs { context.printJSON(JobRecord(job)) }
            return
        }
        if jobs.isEmpty {
            context.say("No jobs.")
            return
        }
        for job in jobs { context.console.print("\(job.id)  " + JobLine.describe(job)) }
    }

    /// Follows every job in turn; each ends with a line, and any job that did not end `done` fails the command.
    static func wait(_ ids: [String], on remote: String?, _ server: OfficerServer, _ context: CommandContext)
        async throws
    {
        var failures: [any Error] = []
        var ended: [Job] = []
        for id in ids {
            do {
                var job = try await server.job(id: id)
                if let remote { job.base = try RemotePath(root: RemotePath.defaultRoot, path: "/", remote: remote) }
                let final = try await JobFollower.follow(job, on: server, context: context, requireSuccess: false)
                ended.append(final)
                if !context.global.json { context.console.message(summary(final)) }
                if final.state != .done { failures.append(CLIError.refused(summary(final), .failure)) }
            } catch let error as CLIError {
                throw error
            } catch {
                // One job's failure is the command's, said once at the end; of several, each is said as it ends.
                if ids.count > 1 { context.console.message("officer-files: " + context.describe(error)) }
                failures.append(error)
            }
        }
        if context.global.json { for job in ended { context.printJSON(JobRecord(job)) } }
        if failures.count == 1, ids.count == 1 {
            throw failures[0] is CLIError ? CLIError.refused("job \(ids[0]) did not succeed", .failure) : failures[0]
        }
        if !failures.isEmpty { throw BatchRunner.summary(of: failures, total: ids.count) }
    }

    /// `job ID (extract /a.zip): done: officer:/a` — what a finished job made, or why it did not.
    static func summary(_ job: Job) -> String {
        let head = "job \(job.id) (\(job.kind) \(job.shownTarget)): \(job.state.rawValue)"
        switch job.state {
        case .done:
            let made = job.createdEntries.map { job.place($0.path)?.description ?? $0.path }
            return made.isEmpty ? head : head + ": " + made.joined(separator: ", ")
        case .failed: return head + ": " + (job.error?.message ?? "no reason given")
        default: return head
        }
    }
}

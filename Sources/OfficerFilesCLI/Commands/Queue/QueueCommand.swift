import FileModel
import Foundation
import Journal
import Officer

/// `queue list|run|drop`: changes kept while the server could not be reached.
enum QueueCommand: Command {
    static let spec = CommandSpec(
        "queue", summary: "list, replay or drop changes queued while the server could not be reached",
        discussion: """
            put, mkdir, mv, cp and rm with --queue keep their change in the journal when the server cannot be
            reached (or with --offline), with what the client last saw of every path it touches. `queue run`
            replays them in order: a change whose paths changed on the server meanwhile (or whose new name was
            taken) is not applied and is listed as a conflict, with the changes that depend on it; nothing on the
            server is clobbered. A queued put sends the local file as it is when replayed. Running it twice, or
            again after it was killed, applies nothing twice. `queue` alone is `queue list`.
            """,
        subcommands: [
            CommandSpec("list", summary: "queued changes, oldest first, with conflicts and why"),
            CommandSpec("run", summary: "replay the queued changes in order"),
            CommandSpec(
                "drop", summary: "forget queued changes",
                positionals: [PositionalSpec("ID", help: "the number `queue list` shows", variadic: true)]),
        ],
        defaultSubcommand: "list")

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let files = try context.files()
        switch parsed.path.last {
        case "run": try await replay(files, context)
        case "drop":
            for text in parsed.positionals {
                guard let id = Int64(text.hasPrefix("#") ? String(text.dropFirst()) : text) else {
                    throw ArgumentError.invalidValue(option: "ID", value: text, reason: "a number from 'queue list'")
                }
                try files.server.dropQueuedWrite(id: id)
                if context.global.json {
                    context.printJSON(DroppedRecord(id: id))
                } else {
                    context.say("dropped #\(id)")
                }
            }
        default:
            let items = try files.server.queuedWrites()
            if context.global.json {
                for item in items { context.printJSON(QueuedRecord(item, remote: nil)) }
            } else if items.isEmpty {
                context.say("Nothing queued.")
            } else {
                // Columns that hold still past #9 and between states of other lengths.
                let idWidth = items.map { "#\($0.id)".count }.max() ?? 2
                let stateWidth = items.map(\.state.rawValue.count).max() ?? 0
                for item in items { context.console.print(line(item, idWidth: idWidth, stateWidth: stateWidth)) }
            }
        }
    }

    /// `#3  conflict  mv officer:/a officer:/b  (officer:/a is absent now; …)`.
    static func line(_ item: TransferJournal.QueuedItem, idWidth: Int = 0, stateWidth: Int = 0) -> String {
        let id = "#\(item.id)"
        let state = item.state.rawValue
        return id + String(repeating: " ", count: max(0, idWidth - id.count)) + "  " + state
            + String(repeating: " ", count: max(0, stateWidth - state.count)) + "  \(item.write.summary)"
            + (item.note.map { "  (\(TerminalText.escaped($0)))" } ?? "")
    }

    static func replay(_ files: OfficerFiles, _ context: CommandContext) async throws {
        let operation = files.server.replayQueue()
        for await event in operation {
            guard !context.global.json, !context.global.quiet || isHeld(event) else { continue }
            switch event {
            case .applied(let item): context.console.message("applied #\(item.id) \(item.write.summary)")
            case .foundApplied(let item): context.console.message("already applied #\(item.id) \(item.write.summary)")
            case .conflict(let item):
                context.console.message("conflict #\(item.id) \(item.write.summary): \(item.note ?? "")")
            case .blocked(let item):
                context.console.message("held #\(item.id) \(item.write.summary): \(item.note ?? "")")
            }
        }
        let summary = try await operation.value
        if summary.alreadyRunning {
            if context.global.json {
                context.printJSON(QueueRunRecord(applied: 0, conflicts: 0, blocked: 0, alreadyRunning: true))
            } else {
                context.say("a queue run is already in progress; it applies the queued changes")
            }
            return
        }
        if context.global.json {
            context.printJSON(
                QueueRunRecord(
                    applied: summary.applied, conflicts: summary.conflicts, blocked: summary.blocked,
                    alreadyRunning: false))
        } else if !context.global.quiet {
            context.say(
                "Queue: \(summary.applied) applied, \(CountFormat.string(summary.conflicts, "conflict")), \(summary.blocked) held behind them."
            )
        }
        let notApplied = summary.conflicts + summary.blocked
        if notApplied > 0 {
            throw CLIError.refused(
                "\(CountFormat.string(notApplied, "queued change", "queued changes")) not applied; officer-files queue list shows \(notApplied == 1 ? "it" : "them")",
                .conflict)
        }
    }

    static func isHeld(_ event: QueueEvent) -> Bool {
        switch event {
        case .conflict, .blocked: true
        default: false
        }
    }
}

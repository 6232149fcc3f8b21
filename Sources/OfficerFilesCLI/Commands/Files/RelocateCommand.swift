import FileModel
import HTTP
import Officer
import Transfer

/// What `mv` and `cp` share: many sources into a folder, or one source to a new name, like mv(1) and cp(1).
enum RelocateCommand {
    enum Action {
        case move, copy
    }

    static func run(_ action: Action, _ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let locations = try parsed.positionals.map { try context.location($0, plain: .officer) }
        // A remote whose changes can be queued keeps its placement by what was last seen (the queue needs it);
        // every other case is the front door's, whose same-remote rule says in one line that sync copies between them.
        let oneRemote = Set(locations.map(\.remoteName)).count == 1 && locations.allSatisfy(\.isRemote)
        let queueable = oneRemote ? try context.files().fixedFeatures(of: locations[0]).contains(.queuedWrites) : false
        if !queueable {
            return try await relocateAnywhere(action, locations, parsed, context)
        }
        let files = try context.files()
        let paths = try parsed.positionals.map { try context.remotePath($0) }
        let sources = Array(paths.dropLast())
        let destination = paths.last!
        // A source written as a folder (`x/`) must be one: the library's stat says so in one line.
        for source in sources where source.namesFolder && !files.isOffline {
            _ = try await files.stat(Location.officer(source))
        }
        var queueAll = WriteQueueing.queuesAtOnce(parsed, files)
        if parsed.flag("parents"), !queueAll {
            // As put -p: the folder the sources go into is made first (the destination itself when it is written
            // as a folder or takes several sources, else its parent) — once every source and name is known good,
            // so a refusal leaves no folder behind.
            try OfficerFiles.requireStorableNames(.officer(destination), all: true)
            for source in sources {
                let entry = try await files.stat(source)
                if action == .copy, !parsed.flag("recursive"), entry.isDirectory {
                    throw CLIError.refused("\(source) is a folder: use cp -r", .refused)
                }
            }
            let folder = destination.namesFolder || sources.count > 1 ? destination : destination.parent
            if !folder.isRoot { _ = try await files.makeFolder(folder, parents: true) }
        }
        // Where the sources go is decided by the destination as the server has it, or (queueing while the server
        // cannot be reached) as it was last listed.
        var intoFolder: Bool
        do {
            if queueAll { throw FrontDoorRefusal.needsNetwork("\(destination)") }
            intoFolder = try await files.statIfExists(destination)?.isDirectory ?? false
        } catch  where queueAll || WriteQueueing.shouldQueue(after: error, parsed, files) {
            queueAll = true
            intoFolder = try files.queuedDestinationIsFolder(destination)
        }
        if sources.count > 1, !intoFolder {
            throw CLIError.usage("with several sources, \(destination) must be an existing folder")
        }
        try await BatchRunner.run(sources, context: context) { source in
            let target = intoFolder ? try destination.appending(source.name) : destination
            let write = QueuedWrite(
                kind: action == .move ? .move : .copy, root: source.root, path: source.path, destination: target.path,
                recursive: parsed.flag("recursive"), overwrite: parsed.flag("force"))
            if queueAll {
                if action == .copy, !parsed.flag("recursive"), case .folder = try files.lastSeen(source) {
                    throw CLIError.refused("\(source) is a folder: use cp -r", .refused)
                }
                return try WriteQueueing.queue(write, files, context, offline: files.isOffline)
            }
            try await WriteQueueing.perform(parsed, context, files) {
                write
            } work: {
                try await relocate(action, source, to: target, files, parsed, context)
            }
        }
    }

    /// mv/cp on a remote whose changes cannot be queued (S3): the front door's placement and same-remote rule.
    static func relocateAnywhere(
        _ action: Action, _ locations: [Location], _ parsed: ParsedCommand, _ context: CommandContext
    ) async throws {
        let files = try context.files()
        let destination = locations.last!
        let sources = Array(locations.dropLast())
        if sources.count > 1, !destination.description.hasSuffix("/"),
            (try? await files.stat(destination))?.isFolder != true
        {
            throw CLIError.usage("with several sources, \(destination) must be an existing folder or end with /")
        }
        try await BatchRunner.run(sources, context: context) { source in
            let entry =
                action == .move
                ? try await files.move(source, to: destination, overwrite: parsed.flag("force"))
                : try await files.copy(
                    source, to: destination, overwrite: parsed.flag("force"), recursive: parsed.flag("recursive"))
            if context.global.json {
                context.printJSON(
                    MovedRecord(
                        source: source.description, destination: entry.location.description,
                        kind: EntryRecord.kind(entry.kind), size: entry.isFolder ? nil : entry.size))
            } else if context.global.verbose {
                context.say("\(source) -> \(entry.location)")
            }
        }
    }

    static func relocate(
        _ action: Action, _ source: RemotePath, to target: RemotePath, _ files: OfficerFiles, _ parsed: ParsedCommand,
        _ context: CommandContext
    ) async throws {
        if action == .copy, !parsed.flag("recursive"), try await files.stat(source).isDirectory {
            throw CLIError.refused("\(source) is a folder: use cp -r", .refused)
        }
        // An existing target is a conflict; the message names --force (CommandContext.describe).
        let entry: FileEntry
        switch action {
        case .move: entry = try await files.move(source, to: target, overwrite: parsed.flag("force"))
        case .copy: entry = try await files.copy(source, to: target, overwrite: parsed.flag("force"))
        }
        if context.global.json {
            let landed = (try? RemotePath(root: target.root, path: entry.path, remote: target.remote)) ?? target
            context.printJSON(
                MovedRecord(
                    source: source.description, destination: landed.description,
                    kind: entry.isDirectory ? "folder" : "file", size: entry.isDirectory ? nil : entry.size))
        } else if context.global.verbose {
            context.say("\(source) -> \(target)")
        }
    }
}

/// `mv`: move or rename within one root.
enum MoveCommand: Command {
    static let spec = CommandSpec(
        "mv", summary: "move or rename remote files and folders",
        options: [
            OptionSpec(["--force", "-f"], help: "replace an existing file at the destination"),
            OptionSpec(["--parents", "-p"], help: "make the destination's missing folders first"),
            WriteQueueing.option,
        ],
        positionals: [
            PositionalSpec(
                "SOURCE", help: "remote path(s) to move (Officer or S3; one remote per command)", variadic: true),
            PositionalSpec("DEST", help: "new path, or an existing folder to move into"),
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        try await RelocateCommand.run(.move, parsed, context)
    }
}

/// `cp`: copy within one root.
enum CopyCommand: Command {
    static let spec = CommandSpec(
        "cp", summary: "copy remote files and folders on the server",
        options: [
            OptionSpec(["--recursive", "-r"], help: "copy folders"),
            OptionSpec(["--force", "-f"], help: "replace an existing file at the destination"),
            OptionSpec(["--parents", "-p"], help: "make the destination's missing folders first"),
            WriteQueueing.option,
        ],
        positionals: [
            PositionalSpec(
                "SOURCE", help: "remote path(s) to copy (Officer or S3; one remote per command)", variadic: true),
            PositionalSpec("DEST", help: "new path, or an existing folder to copy into"),
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        try await RelocateCommand.run(.copy, parsed, context)
    }
}

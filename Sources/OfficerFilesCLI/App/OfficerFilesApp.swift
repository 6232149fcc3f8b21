import FileModel
import Foundation
import HTTP
import Journal
import Officer
import OfficerLinux
import Preview
import Transfer

/// The `officer-files` program: parses the command line, runs the command, maps errors to exit codes.
package enum OfficerFilesApp {
    /// The program's version.
    package static let version = BuildVersion.version + (BuildVersion.commit.map { " (\($0))" } ?? "")

    static let commands: [any Command.Type] = [
        LoginCommand.self, LogoutCommand.self, WhoamiCommand.self, ListCommand.self, StatCommand.self,
        SearchCommand.self, MakeDirectoryCommand.self, MoveCommand.self, CopyCommand.self, RemoveCommand.self,
        GetCommand.self, CatCommand.self, PutCommand.self, AttachCommand.self, TransfersCommand.self, ImageCommand.self,
        ThumbCommand.self,
        InfoCommand.self, ArchiveCommand.self, CacheCommand.self, OCRCommand.self, TTSCommand.self,
        TranscribeCommand.self, ExtractAudioCommand.self, SyncCommand.self, CopyFolderCommand.self, JobsCommand.self,
        QueueCommand.self, WatchCommand.self,
        ExtractCommand.self, TranscodeCommand.self, FetchCommand.self, RemoteCommand.self, CompletionCommand.self,
    ]

    static let helpSpec = CommandSpec(
        "help", summary: "show help for a command",
        options: [OptionSpec(["--man"], help: "print the manual page, officer-files(1), as roff (man -l - reads it)")],
        positionals: [PositionalSpec("COMMAND", help: "the command to explain", optional: true, variadic: true)])

    /// The command tree.
    package static var rootSpec: CommandSpec {
        CommandSpec(
            "officer-files",
            summary: "move and understand files on your Officer server",
            discussion: """
                Remote paths are written officer:/path (root 'home') or officer:ROOT:/path; paths on an
                S3-compatible remote (see `remote`) NAME:bucket/path.
                Commands that only take remote paths also accept a plain /path.
                Environment: OFFICER_SERVER, OFFICER_TOKEN, OFFICER_PASSWORD_FILE, OFFICER_CACERT, OFFICER_CACHE_LIMIT,
                OFFICER_HTTP_ENGINE, OFFICER_HTTP2_BULK, XDG_CONFIG_HOME, XDG_STATE_HOME, XDG_CACHE_HOME, NO_COLOR.
                """,
            subcommands: commands.map { noting(patterns: $0.spec, path: []) } + [helpSpec])
    }

    /// The commands that expand remote patterns say so in their help (and so the man page).
    static func noting(patterns spec: CommandSpec, path: [String]) -> CommandSpec {
        var spec = spec
        let name = (path + [spec.name]).joined(separator: " ")
        spec.subcommands = spec.subcommands.map { noting(patterns: $0, path: path + [spec.name]) }
        guard patternCommands[name] != nil else { return spec }
        let note = """
            A remote path's last name may be a pattern, quoted for the shell ('officer:/Receipts/*.jpg': *, ?, […]):
            the entries of its folder that match, in name order; a pattern that matches nothing is an error.
            """
        spec.discussion = spec.discussion.isEmpty ? note : spec.discussion + "\n" + note
        return spec
    }

    /// The parser over the command tree and the global options.
    package static var parser: ArgumentParser { ArgumentParser(root: rootSpec, globals: GlobalOptions.specs) }

    /// officer-files(1), as `help --man` prints it.
    package static var manualPage: String {
        ManualPage.render(root: rootSpec, globals: GlobalOptions.specs, version: version)
    }

    /// Runs the program on the command line as the system passed it, a word's bytes each. A word that is not
    /// UTF-8 (a Latin-1 file name) is refused, shown escaped, before anything runs: decoded it would name another
    /// file, and a server keeps only UTF-8 names. (Completion words are taken as they decode: never an error.)
    package static func run(
        commandLine words: [[UInt8]], environment: [String: String] = ProcessInfo.processInfo.environment
    ) async -> Int32 {
        let arguments = words.map { String(decoding: $0, as: UTF8.self) }
        if arguments.first != "__complete",
            let word = words.first(where: { String(validating: $0, as: UTF8.self) == nil })
        {
            let error = CLIError.usage(
                "\(TerminalText.escaped(bytes: word)): \(FileName.notUTF8) (names on a server are UTF-8); rename it")
            Console(environment: environment).message("officer-files: \(error)")
            return ExitCode.of(error).rawValue
        }
        return await run(arguments: arguments, environment: environment)
    }

    /// Runs the program and returns its exit code; `remotes` are remotes made in code, by name, beside the
    /// configured ones (a test's in-memory remote). `catchesInterrupt`: Ctrl-C stops the command (a program's
    /// run; a run inside another process leaves the process's signals alone).
    package static func run(
        arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        console: Console? = nil, remotes: [String: any Remote] = [:], catchesInterrupt: Bool = true
    ) async -> Int32 {
        // The CLI runs on the Linux plug-ins (libcurl, OpenSSL, libmagic, libarchive, libvips), as a Linux app would;
        // every command context and `--version` is made below.
        LinuxPlugins.install()
        let console = console ?? Console(environment: environment)
        if arguments.first == "__complete" {
            // The shells' completion scripts ask here (CompletionScript): never an error, at worst nothing.
            let words = Array(arguments.dropFirst().drop { $0 == "--" })
            let context = CommandContext(
                console: console, global: GlobalOptions((try? parser.parse([])) ?? ParsedCommand(path: [])),
                environment: environment,
                configStore: ConfigStore(environment: environment))
            console.printRaw(await CompletionCommand.answer(words, context: context))
            return 0
        }
        let parsed: ParsedCommand
        do {
            parsed = try parser.parse(arguments)
        } catch {
            console.message("officer-files: \(error)")
            return ExitCode.usage.rawValue
        }
        if let code = answerWithoutCommand(parsed, console: console) { return code }
        console.showPaths(
            asTyped: TypedPaths(
                arguments: parsed.positionals + parsed.values.values.flatMap { $0 },
                currentDirectory: FileManager.default.currentDirectoryPath))
        guard let command = commands.first(where: { $0.spec.name == parsed.path[0] }) else {
            return ExitCode.usage.rawValue
        }
        var context = CommandContext(
            console: console, global: GlobalOptions(parsed), environment: environment,
            configStore: ConfigStore(environment: environment))
        context.invokedCommand = parsed.path.first
        context.registeredRemotes = remotes
        context.givenOptions = parsed.flags
        context.offeredOptions = Set(parser.specs(for: parsed.path).last?.options.flatMap(\.names) ?? [])
        do {
            _ = try context.global.lowSpeed()
            _ = try context.httpEngine()
        } catch {
            console.message("officer-files: \(error)")
            return ExitCode.usage.rawValue
        }
        do {
            try context.refuseObjectStorePaths(parsed.positionals, command: parsed.path)
            context.officerRemote = try context.officerRemote(of: parsed)
        } catch {
            console.message("officer-files: " + context.describe(error))
            return ExitCode.of(error).rawValue
        }
        let task = Task {
            var parsed = parsed
            if let plain = patternCommands[parsed.path.joined(separator: " ")] {
                // `rm -f` of a pattern that matches nothing is what `rm -f` of a missing path is: nothing to do.
                let given = parsed.positionals.count
                parsed.positionals = try await context.expandingPatterns(
                    parsed.positionals, plain: plain, nothingIsFine: parsed.path == ["rm"] && parsed.flag("force"))
                if given > 0, parsed.positionals.isEmpty { return }
            }
            try await command.run(parsed, context)
        }
        let interrupt = catchesInterrupt ? interruptHandler(cancelling: task) : nil
        defer { interrupt?.cancel() }
        do {
            try await task.value
            return 0
        } catch {
            return failed(error, context: context)
        }
    }

    /// Answers what needs no command run (`--version`, help, the manual), with its exit code; nil otherwise.
    static func answerWithoutCommand(_ parsed: ParsedCommand, console: Console) -> Int32? {
        if parsed.flag("version") {
            console.print(versionText)
            return 0
        }
        if parsed.wantsHelp || parsed.path.isEmpty {
            console.printRaw(HelpFormatter.help(for: parser.specs(for: parsed.path), globals: GlobalOptions.specs))
            return parsed.path.isEmpty && !parsed.wantsHelp ? ExitCode.usage.rawValue : 0
        }
        if parsed.path == ["help"], parsed.flag("man") {
            console.printRaw(manualPage)
            return 0
        }
        if parsed.path == ["help"] { return help(topic: parsed.positionals, console: console) }
        return nil
    }

    /// Tells how a command failed, in one line (and its details with `-v`), and returns its exit code.
    static func failed(_ error: any Error, context: CommandContext) -> Int32 {
        let console = context.console
        // Whatever failed to reach a closed pipe (`cat big | head -c 10`) ends the run quietly, as git's does.
        if console.outputReaderIsGone { return ExitCode.outputClosed.rawValue }
        let code = ExitCode.of(error)
        if code == .interrupted {
            console.message("officer-files: " + interruption(error, context: context))
            return code.rawValue
        }
        console.message(
            "officer-files: " + context.describe(error) + (hint(for: error, context: context).map { "; " + $0 } ?? ""))
        if context.global.verbose {
            console.message("officer-files: (details: \(context.report(error).detail))")
        }
        return code.rawValue
    }

    /// What an interruption left, and what to run next.
    static func interruption(_ error: any Error, context: CommandContext) -> String {
        if case CLIError.refused(let message, _) = error {
            // The command said what an interruption left (a paused upload) and what to run next.
            return message
        }
        if case UploadError.cancelled(let path) = error.beneathReport {
            // Nothing of it stays on the server (one multipart POST, or removed as asked): a rerun starts over.
            return "interrupted; nothing of \(path) was kept, the same command starts it over"
        }
        if ["login", "logout", "whoami", "remote"].contains(context.invokedCommand ?? "") {
            // Nothing of these is half done: there is nothing to continue.
            return "interrupted; nothing was changed"
        }
        return "interrupted; run the same command again to continue"
    }

    /// The command that helps, where one does: exactly as it can be run (the email from the config).
    static func hint(for error: any Error, context: CommandContext) -> String? {
        if case OfficerError.serverElsewhere(_, let server) = error.beneathReport, context.invokedCommand == "login" {
            let email = (try? context.configStore.load())?.email
            return "log in with: officer-files login --server \(ShellWord.quoted(server))"
                + (email.map { " --email \(ShellWord.quoted($0))" } ?? " --email YOUR-EMAIL")
        }
        guard case OfficerError.notSignedIn(let server, _) = error.beneathReport else { return nil }
        // A token in the environment wins over the config: signing in again would change nothing.
        if context.environment["OFFICER_TOKEN"].map({ !$0.isEmpty }) ?? false {
            return "set a valid one, or unset OFFICER_TOKEN to use the one from login"
        }
        let config = try? context.configStore.load()
        // A named Officer remote's server is signed in to by its name (`--server` would change the default one).
        if let (name, profile) = config?.officers?.first(where: {
            ConfigTokenStore.normalized($0.value.server) == ConfigTokenStore.normalized(server)
        }),
            config?.server.map(ConfigTokenStore.normalized) != ConfigTokenStore.normalized(server)
        {
            return "log in again with: officer-files login \(name)"
                + (profile.email.map { " --email \(ShellWord.quoted($0))" } ?? " --email YOUR-EMAIL")
        }
        let email = config?.email
        return "log in again with: officer-files login --server \(ShellWord.quoted(server))"
            + (email.map { " --email \(ShellWord.quoted($0))" } ?? " --email YOUR-EMAIL")
    }

    /// Ctrl-C cancels the command (transfers abort, journals are flushed, temp files kept for a rerun);
    /// a second Ctrl-C ends the process at once.
    static func interruptHandler(cancelling task: Task<Void, any Error>) -> any DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            task.cancel()
            signal(SIGINT, SIG_DFL)
        }
        source.resume()
        return source
    }

    static func help(topic: [String], console: Console) -> Int32 {
        let chain = parser.specs(for: topic)
        guard chain.count == topic.count + 1 else {
            let unknown = topic[chain.count - 1]
            let suggestion = ArgumentParser.suggestion(for: unknown, among: chain.last!.subcommands.map(\.name))
            console.message(
                "officer-files: "
                    + ArgumentError.unknownCommand(unknown, parent: "officer-files ", suggestion: suggestion)
                    .description)
            return ExitCode.usage.rawValue
        }
        console.printRaw(HelpFormatter.help(for: chain, globals: GlobalOptions.specs))
        return 0
    }

    /// The commands that take several remote paths, whose last names may be patterns (`'officer:/Receipts/*.jpg'`),
    /// with how each reads a plain path; each expands them the same way before it runs.
    static let patternCommands: [String: Location.PlainPath] = [
        "rm": .officer, "info": .local, "get": .local, "ocr": .local, "tts": .local, "transcribe": .local,
        "extract-audio": .local, "thumb": .local, "cache pin": .officer, "cat": .local,
    ]

    /// `officer-files 0.4.0 (abc1234)` and the versions of the libraries its plug-ins run on.
    package static var versionText: String {
        let preview = [
            FileTypeDetector.plugin.value?.libraryVersion, ArchiveReader.plugin.value?.libraryVersion,
            ImagePreparer.plugin.value?.libraryVersion, "SQLite \(SQLiteDatabase.libraryVersion)",
        ]
        return """
            officer-files \(version)
            \(HTTPClientConfiguration.defaultEngine.value.versionDescription), \(SHA256Hasher.hashing.value.name)
            \(preview.compactMap { $0 }.joined(separator: ", "))
            """
    }
}

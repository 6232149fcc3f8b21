import FileModel
import Testing

@testable import OfficerFilesCLI

@Suite struct ArgumentParserTests {
    let parser = ArgumentParser(
        root: CommandSpec(
            "tool", summary: "test tool",
            subcommands: [
                CommandSpec(
                    "copy", summary: "copy things",
                    options: [
                        OptionSpec(["--force", "-f"], help: "overwrite"),
                        OptionSpec(["--recursive", "-r"], help: "folders"),
                        OptionSpec(["--exclude"], .repeated(placeholder: "GLOB"), help: "skip"),
                        OptionSpec(["--transfers", "-t"], .value(placeholder: "N"), help: "parallel"),
                    ],
                    positionals: [
                        PositionalSpec("SRC", help: "from"), PositionalSpec("DST", help: "to", variadic: true),
                    ]),
                CommandSpec(
                    "cache", summary: "cache",
                    subcommands: [
                        CommandSpec("clear", summary: "clear it"),
                        CommandSpec("pin", summary: "pin", positionals: [PositionalSpec("PATH", help: "p")]),
                    ]),
                CommandSpec(
                    "jobs", summary: "jobs",
                    subcommands: [
                        CommandSpec("list", summary: "list them"),
                        CommandSpec(
                            "wait", summary: "wait", positionals: [PositionalSpec("ID", help: "i", variadic: true)]),
                    ],
                    defaultSubcommand: "list"),
            ]),
        globals: [
            OptionSpec(["--json"], help: "json"), OptionSpec(["--server"], .value(placeholder: "URL"), help: "server"),
        ])

    @Test func anOptionIsNeverTakenForTheValueOfAnother() throws {
        #expect(throws: ArgumentError.missingValue(option: "--server")) {
            try parser.parse(["copy", "--server", "--force", "a", "b"])
        }
        #expect(throws: ArgumentError.missingValue(option: "-t")) {
            try parser.parse(["copy", "-t", "--json", "a", "b"])
        }
        // A value that only looks like an option (no such option) is a value.
        let parsed = try parser.parse(["copy", "--exclude", "--not-an-option", "a", "b"])
        #expect(parsed.all("exclude") == ["--not-an-option"])
    }

    @Test func parsesFlagsValuesAndPositionals() throws {
        let parsed = try parser.parse([
            "copy", "-f", "--exclude", "*.tmp", "a", "--exclude=*.bak", "-t", "8", "b", "--json",
        ])
        #expect(parsed.path == ["copy"])
        #expect(parsed.flag("force") && parsed.flag("json") && !parsed.flag("recursive"))
        #expect(parsed.all("exclude") == ["*.tmp", "*.bak"])
        #expect(parsed.value("transfers") == "8")
        #expect(parsed.positionals == ["a", "b"])
    }

    @Test func bundlesShortFlagsAndHonoursDoubleDash() throws {
        let parsed = try parser.parse(["copy", "-fr", "--", "-weird-name", "--also"])
        #expect(parsed.flag("force") && parsed.flag("recursive"))
        #expect(parsed.positionals == ["-weird-name", "--also"])
    }

    @Test func lastValueWinsAndGlobalsGoAnywhere() throws {
        let parsed = try parser.parse(["--server", "http://a", "copy", "x", "y", "--server=http://b"])
        #expect(parsed.value("server") == "http://b" && parsed.all("server") == ["http://a", "http://b"])
    }

    @Test func nestedSubcommands() throws {
        #expect(try parser.parse(["cache", "clear"]).path == ["cache", "clear"])
        #expect(try parser.parse(["cache", "pin", "/x"]).positionals == ["/x"])
        #expect(throws: ArgumentError.missingSubcommand(command: "tool cache", choices: ["clear", "pin"])) {
            try parser.parse(["cache"])
        }
        // A grouping command with a default runs it when none is named.
        #expect(try parser.parse(["jobs"]).path == ["jobs", "list"])
        #expect(try parser.parse(["--json", "jobs"]).path == ["jobs", "list"])
        #expect(try parser.parse(["jobs", "wait", "a", "b"]).positionals == ["a", "b"])
        #expect(throws: ArgumentError.unknownCommand("nope", parent: "tool jobs ", suggestion: nil)) {
            try parser.parse(["jobs", "nope"])
        }
    }

    @Test func suggestsTheNearestCommandAndOption() {
        #expect(throws: ArgumentError.unknownCommand("cpy", parent: "tool ", suggestion: "copy")) {
            try parser.parse(["cpy"])
        }
        #expect(throws: ArgumentError.unknownCommand("cahce", parent: "tool ", suggestion: "cache")) {
            try parser.parse(["cahce"])
        }
        #expect(throws: ArgumentError.unknownCommand("zzzzzz", parent: "tool ", suggestion: nil)) {
            try parser.parse(["zzzzzz"])
        }
        #expect(throws: ArgumentError.unknownOption("--forse", command: "tool copy", suggestion: "--force")) {
            try parser.parse(["copy", "--forse", "a", "b"])
        }
        #expect(throws: ArgumentError.unknownCommand("clera", parent: "tool cache ", suggestion: "clear")) {
            try parser.parse(["cache", "clera"])
        }
    }

    @Test func reportsMissingAndExtraArguments() {
        #expect(throws: ArgumentError.missingValue(option: "--transfers")) {
            try parser.parse(["copy", "a", "b", "--transfers"])
        }
        #expect(throws: ArgumentError.missingArgument(command: "tool copy", name: "DST")) {
            try parser.parse(["copy", "a"])
        }
        #expect(throws: ArgumentError.unexpectedArgument(command: "tool cache pin", argument: "y")) {
            try parser.parse(["cache", "pin", "x", "y"])
        }
        #expect(throws: ArgumentError.unexpectedValue(option: "--force")) {
            try parser.parse(["copy", "--force=yes", "a", "b"])
        }
    }

    /// `put -r` as scp has it: refused with what does it here.
    @Test func anOptionFromAnotherToolsHabitSaysWhatDoesItHere() throws {
        let real = OfficerFilesApp.parser
        #expect(
            throws: ArgumentError.unknownOptionHabit(
                "-r", command: "officer-files put", hint: "a folder goes up with sync, file by file")
        ) { try real.parse(["put", "-r", "dir", "officer:/x/"]) }
        #expect(
            ArgumentError.unknownOptionHabit("--recursive", command: "officer-files get", hint: "h").description
                == "unknown option '--recursive' for 'officer-files get': h")
    }

    /// A refused value names the option as it was written: `-t`, not the `--transfers` nobody typed.
    @Test func aRefusedNumberNamesTheOptionAsWritten() throws {
        #expect(throws: ArgumentError.invalidValue(option: "-t", value: "abc", reason: "a number from 1 to 8")) {
            try parser.parse(["copy", "-t", "abc", "a", "b"]).number("transfers", in: 1...8)
        }
        #expect(throws: ArgumentError.invalidValue(option: "--transfers", value: "0", reason: "a number from 1 to 8")) {
            try parser.parse(["copy", "--transfers=0", "a", "b"]).number("transfers", in: 1...8)
        }
    }

    /// `copy "$SRC" "$DST"` with a variable unset: refused, naming the argument, never read as the top of a tree.
    @Test func refusesAnEmptyArgumentNamingIt() {
        #expect(throws: ArgumentError.emptyArgument(command: "tool copy", name: "DST")) {
            try parser.parse(["copy", "a", ""])
        }
        #expect(throws: ArgumentError.emptyArgument(command: "tool copy", name: "SRC")) {
            try parser.parse(["copy", "", "b", "c"])
        }
        #expect(throws: ArgumentError.emptyArgument(command: "tool cache pin", name: "PATH")) {
            try parser.parse(["cache", "pin", ""])
        }
        #expect(
            ArgumentError.emptyArgument(command: "officer-files mv", name: "DEST").description
                == "'officer-files mv' got an empty DEST: nothing was done")
    }

    @Test func helpSkipsValidation() throws {
        let parsed = try parser.parse(["copy", "--help"])
        #expect(parsed.wantsHelp && parsed.path == ["copy"])
        let text = HelpFormatter.help(for: parser.specs(for: ["copy"]), globals: parser.globals)
        #expect(text.contains("Usage: tool copy [OPTIONS] SRC DST..."))
        #expect(text.contains("-t, --transfers N") && text.contains("--exclude GLOB (repeatable)"))
    }

    @Test func theRealCommandTreeHasHelpForEveryCommand() throws {
        for command in OfficerFilesApp.rootSpec.subcommands {
            let text = HelpFormatter.help(
                for: OfficerFilesApp.parser.specs(for: [command.name]), globals: GlobalOptions.specs)
            #expect(text.contains("Usage: officer-files \(command.name)"), "\(command.name)")
            #expect(!command.summary.isEmpty)
        }
        // Several sources, one destination: the ellipsis is on the sources.
        for (path, usage) in [
            (["mv"], "mv [OPTIONS] SOURCE... DEST"), (["cp"], "cp [OPTIONS] SOURCE... DEST"),
            (["put"], "put [OPTIONS] LOCAL... DEST"),
            (["image", "prepare"], "image prepare [OPTIONS] IN... OUT"),
        ] {
            let text = HelpFormatter.help(for: OfficerFilesApp.parser.specs(for: path), globals: GlobalOptions.specs)
            #expect(text.contains("Usage: officer-files " + usage), "\(text.prefix(200))")
        }
        let parsed = try OfficerFilesApp.parser.parse(["mv", "officer:/a", "officer:/b", "officer:/dest/"])
        #expect(parsed.positionals == ["officer:/a", "officer:/b", "officer:/dest/"])
    }

    @Test func editDistance() {
        #expect(EditDistance.between("kitten", "sitting") == 3)
        #expect(EditDistance.between("", "abc") == 3)
        #expect(EditDistance.suggestion(for: "lst", among: ["ls", "stat"]) == "ls")
    }
}

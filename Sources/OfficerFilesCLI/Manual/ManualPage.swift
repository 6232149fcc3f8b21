import Foundation

/// `officer-files(1)`, written from the command specs that drive `--help` (every command with its usage,
/// help and options), the exit codes, the environment, the files and the README's examples: the page cannot
/// drift from the program. Rendered as man(7) roff that `groff -man -ww` takes without a warning.
enum ManualPage {
    /// The environment variables the program reads, with what each does.
    static let environment: [(name: String, meaning: String)] = [
        ("OFFICER_SERVER", "The Officer server to use instead of the one login saved."),
        ("OFFICER_TOKEN", "A token to use instead of the saved one (it is never written to the config)."),
        ("OFFICER_PASSWORD_FILE", "A file whose first line is the password, for login without a prompt."),
        ("OFFICER_CACERT", "A PEM file of the certificate authority that signed the server's certificate."),
        ("OFFICER_CACHE_LIMIT", "The cache's size limit (e.g. 2G), as --cache-limit."),
        (
            "OFFICER_HTTP_ENGINE",
            "curl (the default) or urlsession: the HTTP engine, libcurl's or the portable core's (which cannot keep --bwlimit here)."
        ),
        (
            "OFFICER_HTTP2_BULK",
            "1 lets file bodies go as HTTP/2 streams where the server offers HTTP/2 (for measuring; by default they take HTTP/1.1 connections)."
        ),
        ("XDG_CONFIG_HOME", "Where the config lives (default ~/.config)."),
        (
            "XDG_STATE_HOME",
            "Where the journal of unfinished transfers and queued changes lives (default ~/.local/state)."
        ),
        ("XDG_CACHE_HOME", "Where the cache lives (default ~/.cache)."),
        ("NO_COLOR", "Set to anything: no colour in the progress display."),
    ]

    /// The page.
    static func render(root: CommandSpec, globals: [OptionSpec], version: String) -> String {
        var out = [
            ".TH OFFICER\\-FILES 1 \"\" \"officer\\-files \(text(version))\" \"User Commands\"",
            ".SH NAME", "officer\\-files \\- \(text(root.summary))",
            ".SH SYNOPSIS", ".B officer\\-files",
            "[\\fIGLOBAL OPTIONS\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]",
            ".SH DESCRIPTION",
        ]
        out += paragraphs(root.discussion)
        out.append(".SH COMMANDS")
        for command in root.subcommands { out += section(command, chain: [root.name]) }
        out.append(".SH GLOBAL OPTIONS")
        out += options(globals + [OptionSpec(["--help", "-h"], help: "show help for the command")])
        out.append(".SH ENVIRONMENT")
        for (name, meaning) in environment { out += [".TP", ".B \(text(name))", text(meaning)] }
        out += [
            ".SH FILES",
            ".TP", ".I ~/.config/officer\\-files/config.json",
            "The server, the account and its token, named remotes (mode 0600).",
            ".TP", ".I ~/.local/state/officer\\-files/journal.sqlite",
            "Unfinished transfers and queued changes (SQLite).",
            ".TP", ".I ~/.cache/officer\\-files/", "Cached files, listings, thumbnails and prepared images.",
            ".SH EXIT STATUS",
        ]
        for code in ExitCode.allCases { out += [".TP", ".B \(code.rawValue)", text(code.meaning)] }
        out += [".SH EXAMPLES", ".nf"]
        out += examples.map { line($0) }
        out += [
            ".fi", ".SH SEE ALSO",
            "The README and docs/CLI.md of the source; \\fBofficer\\-files help\\fR \\fICOMMAND\\fR.",
        ]
        return out.joined(separator: "\n") + "\n"
    }

    private static func section(_ command: CommandSpec, chain: [String]) -> [String] {
        let name = (chain + [command.name]).joined(separator: " ")
        var out = [".SS \"\(text(name))\"", text(command.summary) + "."]
        let usages =
            command.usages.map { $0.map { name + " " + $0 } } ?? [HelpFormatter.usage(name: name, command: command)]
        out += [".PP", ".nf"] + usages.map { line($0) } + [".fi"]
        out += paragraphs(command.discussion)
        for positional in command.positionals { out += [".TP", ".I \(text(positional.name))", text(positional.help)] }
        out += options(command.options)
        for sub in command.subcommands { out += section(sub, chain: chain + [command.name]) }
        return out
    }

    private static func options(_ options: [OptionSpec]) -> [String] {
        options.flatMap { option -> [String] in
            let names = option.names.sorted { $0.count < $1.count }.map { "\\fB\(text($0))\\fR" }.joined(
                separator: ", ")
            let value: String
            switch option.kind {
            case .flag: value = ""
            case .value(let placeholder): value = " \\fI\(text(placeholder))\\fR"
            case .repeated(let placeholder): value = " \\fI\(text(placeholder))\\fR (repeatable)"
            case .optionalValue(let placeholder): value = "[=\\fI\(text(placeholder))\\fR]"
            }
            return [".TP", names + value, text(option.help)]
        }
    }

    /// Text lines as paragraphs (a blank line or the end of one sentence-ending line apart keeps them apart).
    private static func paragraphs(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        return [".PP"]
            + text.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.isEmpty ? ".PP" : line(String($0))
            }
    }

    /// One line of running text: roff's escape and control characters made literal.
    private static func line(_ value: String) -> String {
        let escaped = text(value)
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    /// Text with `\` and `-` as roff wants them (`\e`, `\-`).
    private static func text(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            default:
                // Anything past ASCII as a named glyph: groff reads its input as Latin-1 unless told otherwise.
                if character.isASCII {
                    out.append(character)
                } else {
                    for scalar in character.unicodeScalars {
                        out += "\\[u" + String(format: "%04X", scalar.value) + "]"
                    }
                }
            }
        }
        return out
    }
}

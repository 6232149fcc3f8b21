/// Renders `--help` text from command specs.
package enum HelpFormatter {
    /// Help for the command at the end of `chain` (root first).
    package static func help(for chain: [CommandSpec], globals: [OptionSpec]) -> String {
        let command = chain.last!
        let name = chain.map(\.name).joined(separator: " ")
        var lines = ["\(name) — \(command.summary)", ""]
        if let usages = command.usages {
            lines += usages.enumerated().map { ($0.offset == 0 ? "Usage: " : "       ") + name + " " + $0.element }
        } else {
            lines.append("Usage: \(usage(name: name, command: command))")
        }
        if !command.discussion.isEmpty { lines += ["", command.discussion] }
        if !command.subcommands.isEmpty {
            lines += ["", "Commands:"]
            let width = command.subcommands.map(\.name.count).max() ?? 0
            lines += command.subcommands.map { "  " + pad($0.name, width) + "  " + $0.summary }
        }
        if !command.positionals.isEmpty {
            lines += ["", "Arguments:"]
            let width = command.positionals.map(\.name.count).max() ?? 0
            lines += command.positionals.map { "  " + pad($0.name, width) + "  " + $0.help }
        }
        if !command.options.isEmpty { lines += ["", "Options:"] + table(command.options) }
        lines += ["", "Global options:"] + table(globals + [OptionSpec(["--help", "-h"], help: "show this help")])
        if !command.subcommands.isEmpty {
            lines += ["", "See '\(name) help COMMAND' or '\(name) COMMAND --help' for more."]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func usage(name: String, command: CommandSpec) -> String {
        var parts = [name]
        if !command.subcommands.isEmpty { parts.append("COMMAND") }
        if !command.options.isEmpty { parts.append("[OPTIONS]") }
        for positional in command.positionals {
            let text = positional.name + (positional.isVariadic ? "..." : "")
            parts.append(positional.isOptional ? "[\(text)]" : text)
        }
        return parts.joined(separator: " ")
    }

    private static func table(_ options: [OptionSpec]) -> [String] {
        let spellings = options.map { option -> String in
            let names = option.names.sorted { $0.count < $1.count }.joined(separator: ", ")
            switch option.kind {
            case .flag: return names
            case .value(let placeholder): return names + " " + placeholder
            case .repeated(let placeholder): return names + " " + placeholder + " (repeatable)"
            case .optionalValue(let placeholder): return names + "[=" + placeholder + "]"
            }
        }
        let width = min(34, spellings.map(\.count).max() ?? 0)
        return zip(spellings, options).map { spelling, option in
            spelling.count > width
                ? "  " + spelling + "\n  " + String(repeating: " ", count: width) + "  " + option.help
                : "  " + pad(spelling, width) + "  " + option.help
        }
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}

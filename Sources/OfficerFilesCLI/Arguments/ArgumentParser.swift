import FileModel

/// A small declarative parser: subcommands, flags, options with values (`--o V`, `--o=V`, `-o V`),
/// repeated options, bundled short flags (`-lR`), `--` to end options, and nearest-match suggestions.
package struct ArgumentParser: Sendable {
    /// The program's top command.
    package var root: CommandSpec
    /// Options accepted by every command, anywhere on the line.
    package var globals: [OptionSpec]

    /// Creates a parser.
    package init(root: CommandSpec, globals: [OptionSpec]) {
        self.root = root
        self.globals = globals
    }

    /// The spec chain for a command path (root first).
    package func specs(for path: [String]) -> [CommandSpec] {
        var chain = [root]
        for word in path {
            guard let next = chain.last!.subcommand(word) else { break }
            chain.append(next)
        }
        return chain
    }

    /// Parses `arguments` (without the program name).
    package func parse(_ arguments: [String]) throws(ArgumentError) -> ParsedCommand {
        var result = ParsedCommand(path: [])
        var command = root
        var onlyPositionals = false
        var index = 0
        func commandName() -> String { ([root.name] + result.path).joined(separator: " ") }
        func options() -> [OptionSpec] { command.options + globals + [helpOption] }

        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                if !onlyPositionals, result.positionals.isEmpty, !command.subcommands.isEmpty {
                    func enter(_ word: String) throws(ArgumentError) {
                        guard let sub = command.subcommand(word) else {
                            throw .unknownCommand(
                                word, parent: commandName() + " ",
                                suggestion: Self.suggestion(for: word, among: command.subcommands.map(\.name)))
                        }
                        command = sub
                        result.path.append(word)
                    }
                    if argument == "help", !result.path.isEmpty, command.subcommand(argument) == nil {
                        // `cache help pin`, as every group's help suggests: the help of the command named after it.
                        for word in arguments[index...] where !word.hasPrefix("-") { try enter(word) }
                        result.wantsHelp = true
                        return result
                    }
                    try enter(argument)
                    continue
                }
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            // Bundled short flags: -lR means -l -R.
            if !argument.hasPrefix("--"), argument.count > 2, !argument.contains("=") {
                let letters = argument.dropFirst().map { "-\($0)" }
                let specs = letters.map { letter in options().first { $0.names.contains(letter) } }
                if specs.allSatisfy({ $0?.kind == .flag }) {
                    for spec in specs { record(spec!, value: nil, into: &result) }
                    continue
                }
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let spec = options().first(where: { $0.names.contains(name) }) else {
                let candidates = options().flatMap(\.names).filter { $0.hasPrefix("--") }
                if let habit = Self.optionHabit(name, command: result.path) {
                    throw .unknownOptionHabit(name, command: commandName(), hint: habit)
                }
                throw .unknownOption(
                    name, command: commandName(), suggestion: EditDistance.suggestion(for: name, among: candidates))
            }
            switch spec.kind {
            case .flag:
                if inlineValue != nil { throw .unexpectedValue(option: name) }
                record(spec, value: nil, into: &result)
            case .optionalValue:
                record(spec, value: nil, into: &result)
                if let inlineValue { record(spec, value: inlineValue, spelled: name, into: &result) }
            case .value, .repeated:
                if let inlineValue {
                    record(spec, value: inlineValue, spelled: name, into: &result)
                } else {
                    guard index < arguments.count else { throw .missingValue(option: name) }
                    // `--server --email x`: the value was forgotten, and the next option would be taken for it.
                    let next = arguments[index]
                    if next.hasPrefix("--"),
                        options().contains(where: { $0.names.contains(String(next.prefix { $0 != "=" })) })
                    {
                        throw .missingValue(option: name)
                    }
                    record(spec, value: next, spelled: name, into: &result)
                    index += 1
                }
            }
        }
        if result.wantsHelp { return result }
        // A grouping command with a default (`jobs` is `jobs list`) runs it when no subcommand is named.
        if !command.subcommands.isEmpty, !result.path.isEmpty, let name = command.defaultSubcommand,
            let sub = command.subcommand(name)
        {
            command = sub
            result.path.append(name)
        }
        try validatePositionals(result, command: command, name: commandName())
        return result
    }

    private let helpOption = OptionSpec(["--help", "-h"], help: "show help for this command")

    private func record(
        _ spec: OptionSpec, value: String?, spelled: String? = nil, into result: inout ParsedCommand
    ) {
        if spec.key == "help" {
            result.wantsHelp = true
        } else if let value {
            result.values[spec.key, default: []].append(value)
            if let spelled { result.spellings[spec.key] = spelled }
            result.sequence.append(ParsedCommand.OptionValue(key: spec.key, value: value))
        } else {
            result.flags.insert(spec.key)
        }
    }

    private func validatePositionals(_ result: ParsedCommand, command: CommandSpec, name: String) throws(ArgumentError)
    {
        // A command that only groups subcommands (e.g. `cache`) cannot run by itself.
        if !command.subcommands.isEmpty, !result.path.isEmpty {
            throw .missingSubcommand(command: name, choices: command.subcommands.map(\.name))
        }
        // An empty argument is most often a variable with no value (`mv "$SRC" "$DEST"`): never read as the top of
        // a remote or the current folder, where it would do work nobody asked for.
        if let index = result.positionals.firstIndex(of: "") {
            throw .emptyArgument(
                command: name, name: Self.positionalName(at: index, of: result.positionals.count, in: command))
        }
        let required = command.positionals.filter { !$0.isOptional }
        if result.positionals.count < required.count {
            throw .missingArgument(command: name, name: required[result.positionals.count].name)
        }
        // A variadic positional takes the extra arguments wherever it stands (`SOURCE... DEST` as cp has it).
        if !command.positionals.contains(where: \.isVariadic), result.positionals.count > command.positionals.count {
            throw .unexpectedArgument(command: name, argument: result.positionals[command.positionals.count])
        }
    }

    /// The name of the positional that the argument at `index` of `count` fills (`SOURCE... DEST`: the extra
    /// arguments fill the variadic one).
    static func positionalName(at index: Int, of count: Int, in command: CommandSpec) -> String {
        let specs = command.positionals
        guard !specs.isEmpty else { return "an argument" }
        guard let variadic = specs.firstIndex(where: \.isVariadic) else {
            return specs[min(index, specs.count - 1)].name
        }
        let extra = max(0, count - specs.count)
        if index < variadic { return specs[index].name }
        if index <= variadic + extra { return specs[variadic].name }
        return specs[min(index - extra, specs.count - 1)].name
    }

    /// What an option another tool has means here (`put -r`, `get -r` as scp and curl's users type them).
    static func optionHabit(_ name: String, command: [String]) -> String? {
        guard ["-r", "-R", "--recursive"].contains(name) else { return nil }
        switch command {
        case ["put"]: return "a folder goes up with sync, file by file"
        case ["get"]: return "a folder comes down with sync, file by file, or as one zip with get --zip"
        default: return nil
        }
    }

    /// The subcommand a mistyped one most likely meant: the nearest by spelling, else the one a habit from
    /// other tools names (`rm` for `remove`, `ls` for `list`).
    static func suggestion(for name: String, among names: [String]) -> String? {
        if let near = EditDistance.suggestion(for: name, among: names) { return near }
        let habits: [String: [String]] = [
            "rm": ["remove", "delete"], "del": ["remove", "delete"], "delete": ["remove"], "remove": ["delete", "rm"],
            "ls": ["list"], "show": ["list"], "new": ["add"], "create": ["add"], "rename": ["mv"], "move": ["mv"],
            "copy": ["cp"], "download": ["get"], "upload": ["put"], "mkdirs": ["mkdir"], "dir": ["ls"],
        ]
        return habits[name.lowercased()]?.first { names.contains($0) }
    }
}

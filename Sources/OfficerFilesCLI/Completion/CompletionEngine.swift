import FileModel
import Foundation
import Officer

/// What to offer for the word being typed, from the same command specs that drive `--help` and the parser, so
/// completion cannot drift from what the program takes. The shell scripts (``CompletionScript``) ask it through
/// the hidden `officer-files __complete WORDS…` and print what it answers; remote paths come from the cached
/// listing, and a folder never listed is asked of the server once, with a short timeout.
struct CompletionEngine {
    /// The answer: words to offer, and whether local paths fit too (the shell completes those itself).
    struct Answer: Equatable {
        var words: [String] = []
        var localPaths = false

        /// One word per line; `__files__` asks the shell for its own file completion.
        var lines: String { (words + (localPaths ? ["__files__"] : [])).map { $0 + "\n" }.joined() }
    }

    let parser: ArgumentParser
    /// Lists a remote folder for completion (cache first), or nil.
    let listFolder: (Location) async -> [RemoteEntry]?
    /// The names before `:` that are remotes (`officer` and the configured ones).
    let remoteNames: [String]
    /// What a typed folder names (the CLI's own rule, with the configured remotes).
    let parseLocation: (String) -> Location?

    /// Candidates for the last of `words` (the words after the program's name; the last may be empty).
    func complete(_ words: [String]) async -> Answer {
        var command = parser.root
        var path: [String] = []
        var positionals = 0
        var onlyPositionals = false
        let typed = words.last ?? ""
        var index = 0
        var expectsValueOf: OptionSpec?
        while index < words.count - 1 {
            let word = words[index]
            index += 1
            if expectsValueOf != nil {
                expectsValueOf = nil
                continue
            }
            if !onlyPositionals, word == "--" {
                onlyPositionals = true
                continue
            }
            if !onlyPositionals, word.hasPrefix("-"), word != "-" {
                let name = String(word.prefix { $0 != "=" })
                if let option = (command.options + parser.globals).first(where: { $0.names.contains(name) }),
                    !word.contains("=")
                {
                    switch option.kind {
                    case .value, .repeated: expectsValueOf = option
                    case .flag, .optionalValue: break
                    }
                }
                continue
            }
            if positionals == 0, let sub = command.subcommand(word) {
                command = sub
                path.append(word)
                continue
            }
            positionals += 1
        }
        if let option = expectsValueOf { return await values(of: option, typed: typed) }
        if !onlyPositionals, typed.hasPrefix("-") {
            if typed.hasPrefix("--"), let equals = typed.firstIndex(of: "="),
                let option = (command.options + parser.globals).first(where: {
                    $0.names.contains(String(typed[..<equals]))
                })
            {
                let prefix = String(typed[...equals])
                let answer = await values(of: option, typed: String(typed[typed.index(after: equals)...]))
                return Answer(words: answer.words.map { prefix + $0 }, localPaths: false)
            }
            let names = (command.options + parser.globals + [OptionSpec(["--help"], help: "")]).flatMap(\.names)
            return Answer(
                words: names.filter { $0.hasPrefix(typed) && ($0.hasPrefix("--") || typed.count <= 2) }.sorted())
        }
        if positionals == 0, !command.subcommands.isEmpty {
            let names = command.subcommands.map(\.name) + (path.isEmpty ? [] : ["help"])
            return Answer(words: Array(Set(names)).filter { $0.hasPrefix(typed) }.sorted())
        }
        if path == ["help"] || path.last == "help" {
            return Answer(words: parser.root.subcommands.map(\.name).filter { $0.hasPrefix(typed) }.sorted())
        }
        guard !command.positionals.isEmpty else { return Answer() }
        return await paths(typed)
    }

    /// A fixed set of values where the placeholder names one (`jpeg|webp|keep`, `sha256:HEX`); local paths
    /// where it names a file or folder.
    func values(of option: OptionSpec, typed: String) async -> Answer {
        let placeholder: String
        switch option.kind {
        case .value(let text), .repeated(let text), .optionalValue(let text): placeholder = text
        case .flag: return Answer()
        }
        if placeholder.contains("|") {
            return Answer(
                words: placeholder.split(separator: "|").map(String.init).filter {
                    $0.hasPrefix(typed) && $0.allSatisfy { !$0.isUppercase }
                })
        }
        if let colon = placeholder.firstIndex(of: ":"),
            placeholder[..<colon].allSatisfy({ $0.isLowercase || $0.isNumber })
        {
            let prefix = String(placeholder[...colon])
            return Answer(words: prefix.hasPrefix(typed) ? [prefix] : [])
        }
        let fileLike = ["FILE", "DIR", "PATH", "FOLDER"].contains { placeholder.uppercased().contains($0) }
        return Answer(localPaths: fileLike)
    }

    /// A positional: a remote path after `NAME:`, else remote names and local paths.
    func paths(_ typed: String) async -> Answer {
        guard let colon = typed.firstIndex(of: ":"), remoteNames.contains(String(typed[..<colon])) else {
            let remotes = remoteNames.map { $0 + ":" + ($0 == "officer" ? "/" : "") }.filter {
                $0.hasPrefix(typed) && !typed.isEmpty
            }
            return Answer(words: remotes, localPaths: true)
        }
        // The folder part as written, and the partial name after its last `/`.
        let slash = typed.lastIndex(of: "/")
        let folderText = slash.map { String(typed[...$0]) } ?? String(typed[...colon])
        let partial =
            slash.map { String(typed[typed.index(after: $0)...]) } ?? String(typed[typed.index(after: colon)...])
        guard
            let folder = parseLocation(
                folderText.hasSuffix(":") && typed[..<colon] == "officer" ? folderText + "/" : folderText),
            let entries = await listFolder(folder)
        else { return Answer() }
        let base = folderText.hasSuffix(":") && typed[..<colon] == "officer" ? folderText + "/" : folderText
        return Answer(
            words: entries.filter { $0.name.hasPrefix(partial) && (!$0.name.hasPrefix(".") || partial.hasPrefix(".")) }
                .map { base + $0.name + ($0.isFolder ? "/" : "") }.sorted())
    }
}

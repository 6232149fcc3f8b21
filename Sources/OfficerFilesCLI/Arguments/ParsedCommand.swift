/// What the parser made of a command line.
package struct ParsedCommand: Sendable, Equatable {
    /// The command words, e.g. `["cache", "clear"]`; empty for the bare program.
    package var path: [String]
    /// Flags given, by key.
    package var flags: Set<String> = []
    /// Option values given, by key, in order.
    package var values: [String: [String]] = [:]
    /// Every option value as given, in command-line order across options (filters depend on it).
    package var sequence: [OptionValue] = []
    /// Positional arguments, in order (everything after `--` included).
    package var positionals: [String] = []
    /// How each option with a value was written last (`-x` for `--segments`), by key: a refusal names it so.
    package var spellings: [String: String] = [:]
    /// `-h`/`--help` was given.
    package var wantsHelp = false

    /// True when the flag was given.
    package func flag(_ key: String) -> Bool { flags.contains(key) }
    /// The option `key` as the command line wrote it, else its long name.
    package func spelling(_ key: String) -> String { spellings[key] ?? "--" + key }
    /// The last value of an option.
    package func value(_ key: String) -> String? { values[key]?.last }
    /// All values of a repeated option.
    package func all(_ key: String) -> [String] { values[key] ?? [] }
    /// The last value of an option as a whole number within `range`; nil when not given, a usage error otherwise.
    package func number(_ key: String, in range: ClosedRange<Int>) throws(ArgumentError) -> Int? {
        guard let text = value(key) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw .invalidValue(
                option: spelling(key), value: text, reason: "a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// One option value and its option's key.
    package struct OptionValue: Sendable, Equatable {
        /// The option's key.
        package var key: String
        /// The value.
        package var value: String
    }
}

/// What the parser made of a command line.
public struct ParsedCommand: Sendable, Equatable {
    /// The command words, e.g. `["cache", "clear"]`; empty for the bare program.
    public var path: [String]
    /// Flags given, by key.
    public var flags: Set<String> = []
    /// Option values given, by key, in order.
    public var values: [String: [String]] = [:]
    /// Every option value as given, in command-line order across options (filters depend on it).
    public var sequence: [OptionValue] = []
    /// Positional arguments, in order (everything after `--` included).
    public var positionals: [String] = []
    /// `-h`/`--help` was given.
    public var wantsHelp = false

    /// True when the flag was given.
    public func flag(_ key: String) -> Bool { flags.contains(key) }
    /// The last value of an option.
    public func value(_ key: String) -> String? { values[key]?.last }
    /// All values of a repeated option.
    public func all(_ key: String) -> [String] { values[key] ?? [] }

    /// One option value and its option's key.
    public struct OptionValue: Sendable, Equatable {
        /// The option's key.
        public var key: String
        /// The value.
        public var value: String
    }
}

/// A command line the parser cannot accept; each case says what to type instead where it can.
package enum ArgumentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No such command; `suggestion` is the nearest valid one.
    case unknownCommand(String, parent: String, suggestion: String?)
    /// No such option for this command.
    case unknownOption(String, command: String, suggestion: String?)
    /// No such option, but one another tool has, which this command does another way (`hint`).
    case unknownOptionHabit(String, command: String, hint: String)
    /// An option that takes a value was last on the line.
    case missingValue(option: String)
    /// A flag was written `--flag=value`.
    case unexpectedValue(option: String)
    /// A required positional argument is missing.
    case missingArgument(command: String, name: String)
    /// A positional argument that is empty (`""`: an unset variable, most often).
    case emptyArgument(command: String, name: String)
    /// More positional arguments than the command takes.
    case unexpectedArgument(command: String, argument: String)
    /// A value the command cannot use.
    case invalidValue(option: String, value: String, reason: String)
    /// A command that needs a subcommand got none.
    case missingSubcommand(command: String, choices: [String])

    /// A one-line message.
    package var description: String {
        switch self {
        case .unknownCommand(let name, let parent, let suggestion):
            "unknown command '\(name)'" + (suggestion.map { "; did you mean '\(parent)\($0)'?" } ?? "")
                + " (see '\(parent)--help')"
        case .unknownOption(let name, let command, let suggestion):
            "unknown option '\(name)' for '\(command)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .unknownOptionHabit(let name, let command, let hint): "unknown option '\(name)' for '\(command)': \(hint)"
        case .missingValue(let option): "option '\(option)' needs a value"
        case .unexpectedValue(let option): "option '\(option)' takes no value"
        case .missingArgument(let command, let name): "'\(command)' needs \(name)"
        case .unexpectedArgument(let command, let argument): "'\(command)' does not take the argument '\(argument)'"
        case .emptyArgument(let command, let name): "'\(command)' got an empty \(name): nothing was done"
        case .invalidValue(let option, let value, let reason): "invalid value '\(value)' for \(option): \(reason)"
        case .missingSubcommand(let command, let choices):
            "'\(command)' needs one of: \(choices.joined(separator: ", "))"
        }
    }
}

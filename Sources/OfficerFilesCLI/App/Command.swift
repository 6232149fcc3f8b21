/// One CLI command: its declaration and what it does.
protocol Command: Sendable {
    /// Name, help, options and arguments.
    static var spec: CommandSpec { get }
    /// Runs the command; thrown errors become a one-line message and an exit code.
    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws
}

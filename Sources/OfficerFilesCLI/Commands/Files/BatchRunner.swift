/// Runs one action per item, reporting each failure on its own line and going on with the rest.
enum BatchRunner {
    static func run<Item: Sendable>(
        _ items: [Item], context: CommandContext, _ action: (Item) async throws -> Void
    ) async throws {
        var failures: [any Error] = []
        for item in items {
            do {
                try await action(item)
            } catch {
                // Ctrl-C ends the batch with the item it stopped (whose error says what to run next).
                if items.count == 1 || Task.isCancelled { throw error }
                context.console.message("officer-files: " + context.describe(error))
                failures.append(error)
            }
        }
        if !failures.isEmpty { throw summary(of: failures, total: items.count) }
    }

    /// The error a batch ends with: one kind of failure keeps its own exit code; a mixture is a generic failure.
    static func summary(of failures: [any Error], total: Int) -> CLIError {
        let codes = Set(failures.map { ExitCode.of($0) })
        return .refused("\(failures.count) of \(total) failed", codes.count == 1 ? codes.first! : .failure)
    }
}

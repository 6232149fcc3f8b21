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
                if items.count == 1 { throw error }
                context.console.message("officer-files: \(error)")
                failures.append(error)
            }
        }
        guard failures.isEmpty else {
            // One kind of failure keeps its own exit code; a mixture is a generic failure.
            let codes = Set(failures.map { ExitCode.of($0) })
            throw CLIError.refused("\(failures.count) of \(items.count) failed", codes.count == 1 ? codes.first! : .failure)
        }
    }
}

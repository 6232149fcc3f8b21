import FileModel
import HTTP
import Officer
import Preview
import Transfer

/// The CLI's exit codes, documented in the README.
package enum ExitCode: Int32, Sendable, CaseIterable {
    /// Success.
    case success = 0
    /// Something failed that has no more specific code (including partial failure of a batch).
    case failure = 1
    /// The command line was wrong: unknown command or option, missing argument, malformed path.
    case usage = 2
    /// Not logged in, token expired or revoked, wrong password.
    case authentication = 3
    /// A file or folder does not exist.
    case notFound = 4
    /// The destination exists, a folder is not empty, or similar.
    case conflict = 5
    /// The network failed: connection refused, timeout, TLS.
    case network = 6
    /// The server failed (5xx) or answered outside the contract.
    case server = 7
    /// A local file could not be read or written.
    case localFile = 8
    /// The server refused the request (permission, outside the root, bad request).
    case refused = 9
    /// The server has no space left for the upload (507).
    case serverFull = 10
    /// Interrupted (Ctrl-C).
    case interrupted = 130
    /// The reader of the output went away (`| head`): ended quietly, with the status SIGPIPE gives.
    case outputClosed = 141

    /// What the code means, in the one table the README, docs/CLI.md and the man page show
    /// (`CLIDocumentationTests` checks the documents against ``documentationTable``).
    package var meaning: String {
        switch self {
        case .success: "success"
        case .failure: "failure without a more specific code (e.g. a batch with mixed failures)"
        case .usage: "usage: unknown command or option (the nearest valid one is suggested), missing argument, bad path"
        case .authentication:
            "authentication: not signed in (no server or no token yet), token expired or revoked, wrong password"
        case .notFound: "not found"
        case .conflict: "conflict: destination exists, folder not empty"
        case .network: "network: connection refused, timeout, TLS"
        case .server: "server error, or not an Officer server"
        case .localFile: "local file or config problem"
        case .refused:
            "refused by the server or by a safety rule (outside the root, `cp` of a folder without `-r`, offline work that needs the server)"
        case .serverFull: "the server has no space left for the upload (507)"
        case .interrupted: "interrupted (Ctrl-C); the same command continues what can be continued"
        case .outputClosed:
            "the output's reader went away (a pipe into `head` closed): ended quietly, as SIGPIPE ends a program"
        }
    }

    /// Every code with its meaning as a Markdown table: what the README and docs/CLI.md hold word for word.
    package static var documentationTable: String {
        (["| code | meaning |", "|---|---|"] + allCases.map { "| \($0.rawValue) | \($0.meaning) |" }).joined(
            separator: "\n")
    }

    /// The exit code an error maps to: the CLI's own errors, then the library's category.
    package static func of(_ error: any Error) -> ExitCode {
        switch error.beneathReport {
        case is ArgumentError: .usage
        case let error as CLIError: error.exitCode
        case is ConfigError: .localFile
        case FrontDoorRefusal.noServer: .authentication
        case let error as any CategorizedError: of(error.category)
        case is CancellationError: .interrupted
        default: .failure
        }
    }

    /// The exit code of a library error category (documented in the README).
    package static func of(_ category: ErrorCategory) -> ExitCode {
        switch category {
        case .authentication: .authentication
        case .notFound: .notFound
        case .conflict: .conflict
        case .network: .network
        case .server: .server
        case .serverFull: .serverFull
        case .localFile, .localFull: .localFile
        case .refused: .refused
        case .integrity: .failure
        case .invalidInput: .usage
        case .cancelled: .interrupted
        }
    }
}

/// Failures the commands themselves detect.
package enum CLIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The command line is wrong in a way the parser cannot see.
    case usage(String)
    /// No server configured.
    case noServer
    /// A local file problem.
    case localFile(path: String, message: String)
    /// Some items of a batch failed (each was already reported).
    case partialFailure(failed: Int, total: Int)
    /// A refusal with its own message and code.
    case refused(String, ExitCode)

    /// The exit code for this error.
    package var exitCode: ExitCode {
        switch self {
        case .usage: .usage
        case .noServer: .authentication
        case .localFile: .localFile
        case .partialFailure: .failure
        case .refused(_, let code): code
        }
    }

    /// A one-line message.
    package var description: String {
        switch self {
        case .usage(let message): message
        case .noServer:
            "no server: pass --server URL, set OFFICER_SERVER, or run 'officer-files login --server URL --email EMAIL'"
        case .localFile(let path, let message): "\(path): \(message)"
        case .partialFailure(let failed, let total): "\(failed) of \(total) failed"
        case .refused(let message, _): message
        }
    }
}

import FileModel
import HTTP
import Transfer

/// Why a remote action failed, naming the target.
package enum RemoteActionError: Error, Sendable, CustomStringConvertible {
    /// The action does not apply to this kind of file (checked locally, before anything is sent).
    case unsupported(target: String, action: AIAction, mime: String, viewer: ViewerKind)
    /// The target is a folder or not a regular file.
    case notAFile(target: String)
    /// The server refused or failed the action (an engine failure included).
    case server(target: String, OfficerError)
    /// Uploading the local file failed.
    case upload(target: String, UploadError)
    /// Downloading the produced file failed.
    case download(target: String, DownloadError)
    /// A local file could not be read or written.
    case localFile(path: String, message: String)
    /// The action took longer than allowed.
    case timedOut(target: String, seconds: Double)
    /// The file the action writes beside a server target exists, and nothing said to replace it.
    case outputExists(target: String, output: String)
    /// The server's engine could not do the action on the target (the file is damaged, or not what it seems);
    /// `detail` is the server's last words, its engine's name and the inbox path left out.
    case actionFailed(target: String, action: AIAction, detail: String, error: OfficerError)

    /// A one-line message.
    package var description: String {
        switch self {
        case .unsupported(let target, let action, let mime, let viewer):
            let offered = viewer.aiActions.filter { $0.accepts(mime: mime) }.map(\.rawValue).joined(separator: ", ")
            return
                "\(target): \(action.rawValue) does not apply to \(mime) (\(offered.isEmpty ? "no AI action applies to it" : "it offers " + offered)); nothing was sent"
        case .notAFile(let target): return "\(target): not a regular file"
        case .server(let target, let error): return "\(target): \(error)"
        case .upload(_, let error): return "\(error)"
        case .download(_, let error): return "\(error)"
        case .localFile(let path, let message): return "\(path): \(message)"
        case .timedOut(let target, let seconds): return "\(target): no answer within \(Int(seconds)) s"
        case .outputExists(let target, let output):
            return "\(output): already exists (the \(target) result goes there)"
        case .actionFailed(let target, let action, let detail, _):
            return "\(target): the server's \(action.rawValue) failed on it (\(detail))"
        }
    }
}

import FileModel
import Foundation
import HTTP
import Transfer

/// What a remote AI action works on.
package enum ActionTarget: Sendable, Equatable, CustomStringConvertible {
    /// A file already on the server.
    case remote(RemotePath)
    /// A local file: uploaded into the inbox folder first.
    case local(String)
    /// Text to speak (`tts --text`).
    case text(String)

    /// How messages name it.
    package var description: String {
        switch self {
        case .remote(let path): path.description
        case .local(let path): path
        case .text(let text): "text \"\(text.count > 30 ? text.prefix(30) + "…" : Substring(text))\""
        }
    }

    /// The file's name (what an output beside it is named after); `text` for spoken text.
    package var name: String {
        switch self {
        case .remote(let path): path.name
        case .local(let path): (path as NSString).lastPathComponent
        case .text: "text"
        }
    }
}

/// One remote AI action to run: the action, its target and its parameters.
package struct RemoteActionRequest: Sendable, Equatable {
    /// OCR, TTS, transcription or audio extraction.
    package var action: AIAction
    /// What it works on.
    package var target: ActionTarget
    /// OCR language (tesseract code), default `eng`.
    package var language = "eng"
    /// TTS voice (espeak-ng name), default `en`.
    package var voice = "en"
    /// Audio format of `extract-audio`, default `mp3`.
    package var format = "mp3"
    /// Where a produced file is saved locally: a file, or a folder to put it in; nil saves nothing locally
    /// (the file stays on the server).
    package var download: String?
    /// Replace an existing file: the local copy, and the output the server writes beside a server target.
    package var force = false
    /// Keep the uploaded copy of a local target (and its server-side output) in the inbox.
    package var keepRemote = false
    /// Ask the server even when the cache has the result (its output beside a server target is still replaced
    /// only with ``force``).
    package var refresh = false

    /// Creates a request with default parameters.
    package init(action: AIAction, target: ActionTarget) {
        self.action = action
        self.target = target
    }

    /// The parameters that change the result, for the cache key.
    var parameters: [(String, String)] {
        switch action {
        case .ocr: [("language", language)]
        case .tts: [("voice", voice)]
        case .transcribe: []
        case .extractAudio: [("format", format)]
        }
    }

    /// Where the server writes this action's file for a server file `source` given no output: beside it, its
    /// extension replaced (`notes.md` → `notes.wav`), as the API's contract says; nil for text answers.
    func outputBeside(_ source: RemotePath) -> RemotePath? {
        let ext: String
        switch action {
        case .tts: ext = "wav"
        case .extractAudio: ext = format
        case .ocr, .transcribe: return nil
        }
        let base = source.name.lastIndex(of: ".").map { String(source.name[..<$0]) } ?? source.name
        return try? source.parent.appending(base + "." + ext)
    }

    /// Whether the action answers with text (OCR, transcription) rather than a file.
    package var producesText: Bool { action == .ocr || action == .transcribe }
}

/// The outcome of one action.
package struct RemoteActionResult: Sendable, Equatable, Codable {
    /// The target as given.
    package var target: String
    /// The action.
    package var action: AIAction
    /// OCR or transcription text.
    package var text: String?
    /// A produced file saved locally.
    package var savedPath: String?
    /// A produced file left on the server.
    package var remoteOutput: String?
    /// Bytes of the produced file.
    package var outputBytes: Int64?
    /// The server's engine, or `cache` when no request was made.
    package var engine: String
    /// True when the result came from the cache without a server call.
    package var fromCache: Bool
    /// Seconds it took.
    package var seconds: Double
}

/// Where an action is while it runs.
package enum RemoteActionEvent: Sendable, Equatable {
    /// The local file is being uploaded into the inbox.
    case uploading(sent: Int64, total: Int64)
    /// The server is working on it.
    case processing
    /// The produced file is being downloaded.
    case downloading(done: Int64, total: Int64?)
}

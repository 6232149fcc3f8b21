import Officer

/// One target of `ocr`, `tts`, `transcribe` or `extract-audio`, in JSON: schema `action`.
struct ActionRecord: Encodable, Sendable {
    /// The file it ran on (`officer:/x`, a local path); absent for text.
    var path: String?
    /// The text `tts --text` spoke.
    var spoken: String?
    /// `ocr`, `tts`, `transcribe` or `extract-audio`.
    var action: String
    /// The text OCR or transcription read.
    var text: String?
    /// Where the produced file (or, with `-o`, the text) is: a local path or a location on the server.
    var destination: String?
    /// Bytes of the produced file.
    var size: Int64?
    /// The server's engine (absent when the cache answered).
    var engine: String?
    var fromCache: Bool
    var seconds: Double
    /// Why it failed, in the words of the error line (the other fields then absent).
    var error: String?

    init(_ result: RemoteActionResult, target: ActionTarget, textFile: String? = nil, context: CommandContext) {
        (path, spoken) = Self.target(target, context)
        action = result.action.rawValue
        text = result.text
        destination = (textFile ?? result.savedPath).map(context.shownLocation) ?? result.remoteOutput
        size = result.outputBytes
        engine = result.fromCache ? nil : result.engine
        fromCache = result.fromCache
        seconds = result.seconds
    }

    init(failed target: ActionTarget, action: String, error: String, context: CommandContext) {
        (path, spoken) = Self.target(target, context)
        self.action = action
        fromCache = false
        seconds = 0
        self.error = error
    }

    static func target(_ target: ActionTarget, _ context: CommandContext) -> (path: String?, spoken: String?) {
        switch target {
        case .remote(let path): (path.description, nil)
        case .local(let path): (context.shownLocation(path), nil)
        case .text(let text): (nil, text)
        }
    }
}

/// Body of `POST /api/file-browser/ocr|tts|transcribe|extract-audio` (fields a call does not use stay nil).
public struct AIActionRequest: Codable, Sendable, Equatable {
    /// The root of `path` and `output`.
    public var root: String
    /// The input file (absent for `tts` of given text).
    public var path: String?
    /// Text to speak (`tts` only), instead of a file.
    public var text: String?
    /// OCR language, tesseract's code (`eng`).
    public var language: String?
    /// TTS voice, espeak-ng's name (`en`).
    public var voice: String?
    /// Audio format for `extract-audio`: `mp3`, `wav`, `ogg`, `m4a`.
    public var format: String?
    /// Where the server writes a produced file (default: beside the input).
    public var output: String?
    /// Replace an existing output.
    public var overwrite: Bool?

    /// Creates a request.
    public init(
        root: String, path: String? = nil, text: String? = nil, language: String? = nil, voice: String? = nil,
        format: String? = nil, output: String? = nil, overwrite: Bool? = nil
    ) {
        self.root = root
        self.path = path
        self.text = text
        self.language = language
        self.voice = voice
        self.format = format
        self.output = output
        self.overwrite = overwrite
    }
}

/// Answer of `ocr` and `transcribe`: the text found.
public struct AITextResponse: Codable, Sendable, Equatable {
    /// The input file.
    public var path: String
    /// The recognised or transcribed text.
    public var text: String
    /// The engine that produced it (`tesseract`, `pocketsphinx`).
    public var engine: String
}

/// Answer of `tts` and `extract-audio`: the file the server wrote.
public struct AIFileResponse: Codable, Sendable, Equatable {
    /// The produced file.
    public var entry: FileEntry
    /// The engine that produced it (`espeak-ng`, `ffmpeg`).
    public var engine: String
}

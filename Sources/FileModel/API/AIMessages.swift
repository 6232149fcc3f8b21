/// Body of `POST /api/file-browser/ocr|tts|transcribe|extract-audio` (fields a call does not use stay nil).
package struct AIActionRequest: Codable, Sendable, Equatable {
    /// The root of `path` and `output`.
    package var root: String
    /// The input file (absent for `tts` of given text).
    package var path: String?
    /// Text to speak (`tts` only), instead of a file.
    package var text: String?
    /// OCR language, tesseract's code (`eng`).
    package var language: String?
    /// TTS voice, espeak-ng's name (`en`).
    package var voice: String?
    /// Audio format for `extract-audio`: `mp3`, `wav`, `ogg`, `m4a`.
    package var format: String?
    /// Where the server writes a produced file (default: beside the input).
    package var output: String?
    /// Replace an existing output.
    package var overwrite: Bool?

    /// Creates a request.
    package init(
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
package struct AITextResponse: Codable, Sendable, Equatable {
    /// The input file.
    package var path: String
    /// The recognised or transcribed text.
    package var text: String
    /// The engine that produced it (`tesseract`, `pocketsphinx`).
    package var engine: String
}

/// Answer of `tts` and `extract-audio`: the file the server wrote.
package struct AIFileResponse: Codable, Sendable, Equatable {
    /// The produced file.
    package var entry: FileEntry
    /// The engine that produced it (`espeak-ng`, `ffmpeg`).
    package var engine: String
}

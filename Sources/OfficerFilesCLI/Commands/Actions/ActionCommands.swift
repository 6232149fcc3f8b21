import FileModel

/// A command that runs one remote AI action on its targets.
protocol AIActionCommand: Command {
    /// The action it runs.
    static var action: AIAction { get }
}

extension AIActionCommand {
    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        try await RemoteActionCommand.run(action, parsed, context)
    }
}

/// `ocr TARGET...`: the text in images.
enum OCRCommand: AIActionCommand {
    static let spec = RemoteActionCommand.spec(
        .ocr, summary: "recognise the text in images on the server (tesseract)",
        options: [
            OptionSpec(
                ["--language", "-l"], .value(placeholder: "LANG"), help: "tesseract language code (default: eng)")
        ])
    static let action = AIAction.ocr
}

/// `tts TARGET... | --text TEXT`: text read aloud into WAV files.
enum TTSCommand: AIActionCommand {
    static let spec = RemoteActionCommand.spec(
        .tts, summary: "read text files (or --text) aloud into WAV files on the server (espeak-ng)",
        options: [
            OptionSpec(["--text"], .value(placeholder: "TEXT"), help: "speak this text instead of a file"),
            OptionSpec(["--voice"], .value(placeholder: "VOICE"), help: "espeak-ng voice (default: en)"),
            OptionSpec(["--no-download"], help: "leave the WAV on the server"),
        ])
    static let action = AIAction.tts
}

/// `transcribe TARGET...`: speech in audio or video as text.
enum TranscribeCommand: AIActionCommand {
    static let spec = RemoteActionCommand.spec(
        .transcribe, summary: "transcribe speech in audio or video files (pocketsphinx)")
    static let action = AIAction.transcribe
}

/// `extract-audio TARGET...`: a video's sound track as an audio file.
enum ExtractAudioCommand: AIActionCommand {
    static let spec = RemoteActionCommand.spec(
        .extractAudio, summary: "extract the audio track of videos (ffmpeg)",
        options: [
            OptionSpec(
                ["--format"], .value(placeholder: "mp3|wav|ogg|m4a"), help: "the sound track's format (default: mp3)"),
            OptionSpec(["--no-download"], help: "leave the audio file on the server"),
        ])
    static let action = AIAction.extractAudio
}

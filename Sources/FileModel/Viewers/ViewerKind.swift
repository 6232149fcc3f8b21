/// How the Officer file viewer shows a file (the seed's viewer table, §6.6).
///
/// Cases may be added in a later version: a `switch` over it keeps a `default`.
public enum ViewerKind: String, Sendable, Codable, CaseIterable {
    /// Rendered Markdown (`.md`).
    case markdown
    /// Read-only, syntax-highlighted text with line numbers (`.txt`, `.json`, `.ts`, `.js`, …).
    case code
    /// Image viewer with pinch-to-zoom (`.jpg`, `.png`, `.gif`, `.svg`, `.webp`).
    case image
    /// PDF viewer.
    case pdf
    /// Audio player (`.mp3`, `.wav`, `.flac`, `.ogg`).
    case audio
    /// Native video player (`.mp4`, `.webm`, `.mov`).
    case video
    /// Video that plays through the server's transcode endpoint (`.mkv`, `.avi`).
    case transcodedVideo = "transcoded-video"
    /// Anything else: "This file type can't be previewed. Download?"
    case download

    /// The contextual AI actions the seed offers for this kind of file.
    public var aiActions: [AIAction] {
        switch self {
        case .image: [.ocr]
        case .markdown, .code: [.tts]
        case .audio: [.transcribe]
        case .video, .transcodedVideo: [.transcribe, .extractAudio]
        case .pdf, .download: []
        }
    }
}

/// The server's AI actions on files.
///
/// Cases may be added in a later version: a `switch` over it keeps a `default`.
public enum AIAction: String, Sendable, Codable, CaseIterable {
    /// Extract text from an image (`/api/file-browser/ocr`).
    case ocr
    /// Read a text file aloud (`/api/file-browser/tts`).
    case tts
    /// Transcribe audio or video (`/api/file-browser/transcribe`).
    case transcribe
    /// Extract the audio track of a video (`/api/file-browser/extract-audio`).
    case extractAudio = "extract-audio"
}

extension AIAction {
    /// Image formats OCR takes: those the server's engine reads (tesseract through leptonica), and HEIC/HEIF/AVIF,
    /// which officer-files turns into JPEG before sending. An image viewer shows more (XPM, SVG, icons), and
    /// offering OCR there would only end in the engine's error.
    package static let ocrMIMETypes: Set<String> = [
        "image/png", "image/jpeg", "image/tiff", "image/bmp", "image/x-ms-bmp", "image/gif", "image/webp", "image/heic",
        "image/heif", "image/avif",
        "image/x-portable-bitmap", "image/x-portable-graymap", "image/x-portable-pixmap", "image/x-portable-anymap",
    ]

    /// Whether the server can run this action on a file of type `mime` (the viewer table decided the kind).
    package func accepts(mime: String) -> Bool {
        switch self {
        case .ocr: Self.ocrMIMETypes.contains(mime)
        default: true
        }
    }
}

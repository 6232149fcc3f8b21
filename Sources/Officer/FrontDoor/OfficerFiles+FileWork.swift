import FileModel
import Foundation

/// What an app does with one file beyond moving it: a thumbnail, the server's AI actions, keeping it for
/// offline use. Each goes to the location's remote, which does it or says in one line it cannot.
extension OfficerFiles {
    /// A JPEG thumbnail, longest edge at most `size` (16–1024), as EXIF orientation says it is seen: of an
    /// Officer file (the cache, the server's thumbnail where offered, a photo's embedded one from its first
    /// 64 KiB, else the file fetched once and kept in the cache) or of a local image.
    public func thumbnail(of location: Location, size: Int = 256) async throws(OfficerFilesError) -> Data {
        try await reporting(location) { try await thumbnailMade(of: location, size: size).image.jpeg }
    }

    /// The same with its size and where it came from (the CLI says so), the location's own error thrown.
    package func thumbnailMade(of location: Location, size: Int = 256) async throws -> Thumbnail {
        try await remote(for: location).thumbnail(location, size: size)
    }

    /// What the server's AI actions take for the file at `location` (its remote's answer).
    package func actionTarget(for location: Location) throws -> ActionTarget {
        try remote(for: location).actionTarget(location)
    }

    /// The text in an image (OCR on the server, `language` a tesseract code): an Officer file, or a local image
    /// sent to the server's inbox and removed after. A result for unchanged content comes from the cache.
    public func recognizeText(in location: Location, language: String = "eng") async throws(OfficerFilesError)
        -> String
    {
        try await reporting(location) {
            var request = RemoteActionRequest(action: .ocr, target: try actionTarget(for: location))
            request.language = language
            return try await runAction(request).value.text ?? ""
        }
    }

    /// The words spoken in an audio or video file (transcription on the server).
    public func transcribe(_ location: Location) async throws(OfficerFilesError) -> String {
        try await reporting(location) {
            let request = RemoteActionRequest(action: .transcribe, target: try actionTarget(for: location))
            return try await runAction(request).value.text ?? ""
        }
    }

    /// A text file read aloud (text to speech on the server) into a WAV at `local` (a file, or a folder to put
    /// it in); an existing file is replaced only with `replacing`. Returns where it was saved.
    public func speak(_ location: Location, to local: URL, voice: String = "en", replacing: Bool = false)
        async throws(OfficerFilesError) -> URL
    {
        try await reporting(location) {
            try await speech(try actionTarget(for: location), local, voice, replacing)
        }
    }

    /// Text read aloud into a WAV at `local`, as ``speak(_:to:voice:replacing:)``.
    public func speak(text: String, to local: URL, voice: String = "en", replacing: Bool = false)
        async throws(OfficerFilesError) -> URL
    {
        try await reporting(.local(local.path)) { try await speech(.text(text), local, voice, replacing) }
    }

    private func speech(_ target: ActionTarget, _ local: URL, _ voice: String, _ replacing: Bool) async throws -> URL {
        var request = RemoteActionRequest(action: .tts, target: target)
        request.voice = voice
        request.download = local.path
        request.force = replacing
        let result = try await runAction(request).value
        return URL(fileURLWithPath: result.savedPath ?? local.path)
    }

    /// Keeps a file in the cache for offline use (never evicted): a copy the server still reports current is
    /// kept as it is, otherwise the file is fetched first. Offline, only a file already cached can be kept.
    public func keepOffline(_ location: Location) async throws(OfficerFilesError) {
        try await reporting(location) { _ = try await pin(location) }
    }

    /// The same, saying what it took: a file's size, and whether the cached copy was current.
    package func pin(_ location: Location) async throws -> PinOutcome {
        try await remote(for: location).setKeptOffline(location, true) ?? PinOutcome(bytes: 0, wasCached: true)
    }

    /// Lets a kept file be evicted again, through its remote.
    package func unpin(_ location: Location) async throws {
        _ = try await remote(for: location).setKeptOffline(location, false)
    }

    /// Lets a file kept for offline use be evicted again.
    public func stopKeepingOffline(_ location: Location) async throws(OfficerFilesError) {
        try await reporting(location) { try await unpin(location) }
    }
}

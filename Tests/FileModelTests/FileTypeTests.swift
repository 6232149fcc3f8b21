import FileModel
import Testing

@Suite struct FileTypeTests {
    @Test func contentFirstExtensionWhereContentIsGeneric() {
        let markdown = FileType(contentMIME: "text/plain", charset: "utf-8", fileName: "notes.MD")
        #expect(
            markdown.mime == "text/markdown" && markdown.viewer == .markdown && markdown.fromExtension
                && markdown.actions == [.tts])
        let png = FileType(contentMIME: "image/png", charset: "binary", fileName: "looks-like.txt")
        #expect(png.mime == "image/png" && png.viewer == .image && !png.fromExtension && png.actions == [.ocr])
        let docx = FileType(contentMIME: "application/zip", charset: "binary", fileName: "report.docx")
        #expect(docx.mime.hasSuffix("wordprocessingml.document") && docx.viewer == .download)
        let swift = FileType(contentMIME: "text/plain", charset: "us-ascii", fileName: "main.swift")
        #expect(swift.viewer == .code && swift.language == "swift")
        // Bytes libmagic cannot name go by the extension; a specific binary type never does (png above).
        let opaque = FileType(contentMIME: "application/octet-stream", charset: "binary", fileName: "data.json")
        #expect(opaque.mime == "application/json" && opaque.fromExtension)
        let tarNamedText = FileType(contentMIME: "application/x-tar", charset: "binary", fileName: "backup.txt")
        #expect(tarNamedText.mime == "application/x-tar" && tarNamedText.viewer == .download)
        let unknown = FileType(contentMIME: "application/octet-stream", charset: "binary", fileName: "blob")
        #expect(unknown.viewer == .download && unknown.actions.isEmpty)
    }

    @Test func theSeedsViewerTable() {
        let rows: [(String, ViewerKind)] = [
            ("a.md", .markdown), ("a.txt", .code), ("a.json", .code), ("a.ts", .code), ("a.js", .code),
            ("a.jpg", .image),
            ("a.png", .image), ("a.gif", .image), ("a.svg", .image), ("a.webp", .image), ("a.pdf", .pdf),
            ("a.mp3", .audio),
            ("a.wav", .audio), ("a.flac", .audio), ("a.ogg", .audio), ("a.mp4", .video), ("a.webm", .video),
            ("a.mov", .video),
            ("a.mkv", .transcodedVideo), ("a.avi", .transcodedVideo),
        ]
        for (name, viewer) in rows {
            let ext = String(name.split(separator: ".").last!)
            #expect(FileTypeTable.byExtension[ext]?.viewer == viewer, "\(name)")
        }
        #expect(ViewerKind.video.aiActions == [.transcribe, .extractAudio])
        #expect(ViewerKind.audio.aiActions == [.transcribe])
        #expect(FileTypeTable.viewer(forMIME: "video/x-matroska") == .transcodedVideo)
        #expect(FileTypeTable.viewer(forMIME: "application/x-tar") == .download)
    }
}

/// An entry of a listing says what it is and what can be done with it, in one property.
@Suite struct EntryFileTypeTests {
    @Test func anEntryCarriesItsTypeViewerAndActions() {
        let notes = RemoteEntry(location: .local("/n/notes.md"), name: "notes.md", kind: .file, mime: "text/plain")
        #expect(notes.fileType?.viewer == .markdown && notes.fileType?.actions == [.tts])
        let photo = RemoteEntry(location: .local("/n/a.jpg"), name: "a.jpg", kind: .file, mime: "image/jpeg")
        #expect(photo.fileType?.viewer == .image && photo.fileType?.actions == [.ocr])
        let untyped = RemoteEntry(location: .local("/n/talk.mp4"), name: "talk.mp4", kind: .file)
        #expect(untyped.fileType?.mime == "video/mp4", "\(String(describing: untyped.fileType))")
        let folder = RemoteEntry(location: .local("/n/x"), name: "x", kind: .directory)
        #expect(folder.fileType == nil)
    }
}

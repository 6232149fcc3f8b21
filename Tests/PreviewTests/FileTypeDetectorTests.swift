import FileModel
import Foundation
import OfficerLinux
import Preview
import TestSupport
import Testing

/// A corpus made by the tests, one file per row of the seed's viewer table (plus traps).
@Suite struct FileTypeDetectorTests {
    init() { LinuxPlugins.install() }

    let folder = TemporaryDirectory(prefix: "corpus")

    func make(_ tool: String, _ arguments: [String]) throws {
        let result = try ProcessRunner.run(tool, arguments)
        #expect(result.status == 0, "\(tool) \(arguments): \(result.stderr)")
    }

    @Test func everyViewerRowIsDetectedFromContent() throws {
        try folder.write("notes.md", "# Title\n\nSome *markdown* text.\n")
        try folder.write("plain.txt", "just some words\n")
        try folder.write("data.json", "{\"name\": \"officer\", \"n\": [1, 2, 3]}\n")
        try folder.write("app.ts", "export const answer: number = 42;\n")
        try folder.write("app.js", "console.log('hi');\n")
        try folder.write("logo.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"></svg>\n")
        try folder.write("doc.pdf", "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
        try make("/usr/bin/vips", ["black", folder.file("img.v"), "8", "8", "--bands", "3"])
        for ext in ["png", "jpg", "gif", "webp"] {
            try make("/usr/bin/vips", ["copy", folder.file("img.v"), folder.file("pic.\(ext)")])
        }
        for ext in ["mp3", "wav", "flac", "ogg"] {
            try make(
                "/usr/bin/ffmpeg",
                [
                    "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=duration=0.3",
                    folder.file("sound.\(ext)"),
                ])
        }
        for ext in ["mp4", "webm", "mov", "mkv", "avi"] {
            try make(
                "/usr/bin/ffmpeg",
                [
                    "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "color=size=32x32:duration=0.2",
                    folder.file("clip.\(ext)"),
                ])
        }
        try folder.write("blob.bin", Data((0..<512).map { UInt8(($0 * 7919) % 251) }))
        // A zip that is really a Word document goes by the extension; a text file named .zip stays text.
        try folder.write("in/word/document.xml", "<w:document/>")
        try make(
            "/usr/bin/bsdtar", ["--format", "zip", "-cf", folder.file("report.docx"), "-C", folder.file("in"), "word"])
        try folder.write("fake.zip", "not a zip at all\n")

        let expected: [String: ViewerKind] = [
            "notes.md": .markdown, "plain.txt": .code, "data.json": .code, "app.ts": .code, "app.js": .code,
            "logo.svg": .image,
            "doc.pdf": .pdf, "pic.png": .image, "pic.jpg": .image, "pic.gif": .image, "pic.webp": .image,
            "sound.mp3": .audio,
            "sound.wav": .audio, "sound.flac": .audio, "sound.ogg": .audio, "clip.mp4": .video, "clip.webm": .video,
            "clip.mov": .video, "clip.mkv": .transcodedVideo, "clip.avi": .transcodedVideo, "blob.bin": .download,
            "report.docx": .download, "fake.zip": .code,
        ]
        let detector = FileTypeDetector()
        for (name, viewer) in expected.sorted(by: { $0.key < $1.key }) {
            let type = try detector.detect(file: folder.file(name))
            #expect(type.viewer == viewer, "\(name): \(type.mime) -> \(type.viewer)")
        }
        #expect(try detector.detect(file: folder.file("pic.png")).mime == "image/png")
        #expect(try detector.detect(file: folder.file("report.docx")).mime.contains("wordprocessingml"))
        #expect(try detector.detect(file: folder.file("fake.zip")).mime == "text/plain")
        #expect(try detector.detect(file: folder.file("data.json")).language == "json")
        #expect(try detector.detect(file: folder.file("clip.mkv")).actions == [.transcribe, .extractAudio])
    }

    @Test func detectsFromAPrefixAndNamesMissingFiles() throws {
        let png = folder.file("x.png")
        try make("/usr/bin/vips", ["black", png, "4", "4"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
        #expect(try FileTypeDetector().detect(bytes: bytes.prefix(64), name: "remote.png").mime == "image/png")
        #expect(try FileTypeDetector().detect(bytes: Data(), name: "empty.txt").viewer == .code)
        #expect {
            try FileTypeDetector().detect(file: folder.file("missing.md"))
        } throws: { error in
            "\(error)".contains("missing.md")
        }
    }
}

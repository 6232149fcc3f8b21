import Foundation
import LibArchiveReading
import MagicFileTypes
import OfficerLinux
import Preview
import TestSupport
import Testing
import VipsImaging

/// One real call into each C library Preview links, so a broken install fails here first.
@Suite struct LibrarySmokeTests {
    init() { LinuxPlugins.install() }

    @Test func libmagicDetectsContent() throws {
        #expect(MagicCookie.libraryVersion.hasPrefix("5."))
        let folder = TemporaryDirectory()
        // A PNG under a misleading name: content wins.
        let png = folder.file("looks-like.txt")
        try VipsImage.black(width: 4, height: 4).writePNG(to: png)
        let cookie = try MagicCookie()
        #expect(try cookie.describe(file: png).hasPrefix("image/png"))
        #expect(try cookie.describe(bytes: Data("plain words\n".utf8)).hasPrefix("text/plain"))
        #expect(throws: MagicError.self) { try cookie.describe(file: folder.file("missing")) }
    }

    @Test func libmagicCookiesArePerThread() async throws {
        let answers = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask { try MagicCookie.forCurrentThread().describe(bytes: Data("{\"a\": 1}\n".utf8)) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == 8 && answers.allSatisfy { $0.contains("json") || $0.contains("text") })
    }

    @Test func libarchiveListsAZip() throws {
        #expect(ArchiveReader.libraryVersion.hasPrefix("libarchive 3"))
        let folder = TemporaryDirectory()
        try folder.write("in/a.txt", "hello")
        try folder.write("in/sub/b.txt", "world!")
        let result = try ProcessRunner.run(
            "/usr/bin/bsdtar", ["-a", "-cf", folder.file("x.zip"), "-C", folder.file("in"), "a.txt", "sub"])
        #expect(result.status == 0, "\(result.stderr)")
        let reader = try ArchiveReader(path: folder.file("x.zip"))
        let members = try reader.members()
        #expect(members.map(\.path).sorted() == ["a.txt", "sub/", "sub/b.txt"])
        #expect(members.first { $0.path == "sub/b.txt" }?.size == 6)
        #expect(members.first { $0.path == "sub/" }?.isDirectory == true)
        #expect(reader.formatName?.contains("ZIP") == true)
    }

    @Test func libarchiveNamesABrokenArchive() throws {
        let folder = TemporaryDirectory()
        let path = try folder.write("broken.zip", Data("PK\u{3}\u{4}garbage".utf8))
        #expect {
            try ArchiveReader(path: path).members()
        } throws: { error in
            "\(error)".contains("broken.zip")
        }
    }

    @Test func libvipsRoundTripsAnImage() throws {
        #expect(VipsRuntime.libraryVersion.hasPrefix("8."))
        let folder = TemporaryDirectory()
        let image = try VipsImage.black(width: 64, height: 48)
        try image.writePNG(to: folder.file("black.png"))
        let loaded = try VipsImage(contentsOf: folder.file("black.png"))
        #expect(loaded.width == 64 && loaded.height == 48 && loaded.bands == 3)
        #expect(try loaded.average() == 0)
        try loaded.writeJPEG(to: folder.file("black.jpg"), quality: 80)
        #expect(try MagicCookie().describe(file: folder.file("black.jpg")).hasPrefix("image/jpeg"))
    }

    @Test func libvipsRefusesATruncatedImage() throws {
        let folder = TemporaryDirectory()
        try VipsImage.black(width: 300, height: 300).writeJPEG(to: folder.file("whole.jpg"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.file("whole.jpg")))
        let truncated = try folder.write("cut.jpg", bytes.prefix(bytes.count / 3))
        #expect {
            try VipsImage(contentsOf: truncated).average()
        } throws: { error in
            "\(error)".contains("cut.jpg") || "\(error)".contains("avg")
        }
        #expect(throws: VipsError.self) { try VipsImage(contentsOf: folder.file("none.png")) }
    }
}

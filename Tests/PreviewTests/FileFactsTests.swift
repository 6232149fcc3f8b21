import Foundation
import OfficerLinux
import TestSupport
import Testing

@testable import Preview

/// File facts from the first bytes (what a remote file gives) and from local files (EXIF through libvips).
@Suite struct FileFactsTests {
    init() { LinuxPlugins.install() }

    let folder = TemporaryDirectory(prefix: "facts")

    func vips(_ arguments: [String]) throws {
        let result = try ProcessRunner.run("/usr/bin/vips", arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }

    func image(_ name: String, width: Int, height: Int) throws -> String {
        try vips(["black", folder.file(name + ".v"), String(width), String(height)])
        try vips(["copy", folder.file(name + ".v"), folder.file(name)])
        return folder.file(name)
    }

    @Test func imageSizesComeFromTheHeadersOfPNGGIFAndJPEG() throws {
        for (name, mime) in [("a.png", "image/png"), ("a.gif", "image/gif"), ("a.jpg", "image/jpeg")] {
            let path = try image(name, width: 321, height: 123)
            let prefix = try FileTypeDetector().prefix(of: path)
            let facts = try FileFacts(
                prefix: prefix, name: name, path: "officer:/" + name, size: Int64(prefix.count), modificationTime: 0,
                mode: nil)
            #expect(facts.type.mime == mime)
            #expect(
                facts.image?.width == 321 && facts.image?.height == 123, "\(name): \(String(describing: facts.image))")
        }
        // A JPEG whose frame header lies past the bytes at hand, or bytes that only start like one: no size, no crash.
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: try image("b.jpg", width: 40, height: 30)))
        #expect(FileFacts.jpegSize(jpeg.prefix(20)) == nil)
        #expect(FileFacts.jpegSize(Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x00, 0xFF])) == nil)
        #expect(FileFacts.jpegSize(Data([0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: 100))) == nil)
        #expect(FileFacts.jpegSize(jpeg)! == (40, 30))
    }

    @Test func localFactsReadEXIFAndCountLines() throws {
        let photo = try image("c.jpg", width: 64, height: 48)
        let facts = try FileFacts.local(photo)
        #expect(facts.image?.width == 64 && facts.image?.orientation == 1 && facts.image?.hasGPS == false)
        let text = folder.file("t.txt")
        try Data((0..<100_000).map { "line \($0)\n" }.joined().utf8).write(to: URL(fileURLWithPath: text))
        let counted = try FileFacts.local(text)
        #expect(counted.lines == 100_000 && counted.firstLines == ["line 0", "line 1", "line 2"])
        #expect(throws: FileFactsError.notAFile(path: folder.path)) { try FileFacts.local(folder.path) }
        #expect(throws: FileFactsError.self) { try FileFacts.local(folder.file("missing")) }
    }
}

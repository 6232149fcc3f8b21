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

    /// A JPEG's size and EXIF facts come from its first bytes, as libvips tells them, without loading it; one
    /// whose frame header lies past them is read by libvips.
    @Test func aJPEGsEXIFFactsFromItsFirstBytesAreLibvipssOwn() throws {
        let photo = try image("e.jpg", width: 64, height: 48)
        let tagged = try ProcessRunner.run(
            "/usr/bin/exiftool",
            [
                "-q", "-overwrite_original", "-Orientation#=6", "-Model=Pocket  ",
                "-DateTimeOriginal=2024:01:02 10:00:00",
                "-GPSLatitude=48.1", "-GPSLatitudeRef=S", "-GPSLongitude=11.5", "-GPSLongitudeRef=W", photo,
            ])
        #expect(tagged.status == 0, "\(tagged.stderr)")
        let prefix = try FileTypeDetector().prefix(of: photo)
        let ours = try #require(FileFacts.jpegImageFacts(prefix))
        let theirs = try #require(ImagePreparer.plugin.value?.imageFacts(file: photo))
        #expect(ours == theirs)
        #expect(ours.orientation == 6 && ours.camera == "Pocket" && ours.latitude.map { $0 < 0 } == true)
        #expect(try FileFacts.local(photo).image == theirs)
        let plain = try image("p.jpg", width: 5, height: 7)
        #expect(FileFacts.jpegImageFacts(try FileTypeDetector().prefix(of: plain)) == theirsFacts(plain))

        // 64 KiB of another segment before the frame: the first bytes cannot tell, libvips does.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: plain)))
        let padding: [UInt8] = [0xFF, 0xE2, 0xFF, 0xFF] + [UInt8](repeating: 0x20, count: 0xFFFF - 2)
        let late = folder.file("late.jpg")
        try Data(bytes[0..<2] + padding + bytes[2...]).write(to: URL(fileURLWithPath: late))
        #expect(FileFacts.jpegImageFacts(try FileTypeDetector().prefix(of: late)) == nil)
        #expect(try FileFacts.local(late).image?.width == 5)
    }

    func theirsFacts(_ path: String) -> FileFacts.ImageFacts? { ImagePreparer.plugin.value?.imageFacts(file: path) }

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

    /// The first three lines of a text, CRLF or LF (a CRLF file was one long line), and libmagic's answer split
    /// into type and charset.
    @Test func firstLinesEndAtEitherLineBreakAndMagicsAnswerIsSplit() {
        #expect(FileFacts.firstLines(Data("one\r\ntwo\r\n\r\nfour\n".utf8)) == ["one", "two"])
        #expect(FileFacts.firstLines(Data("a\nb\nc\nd\n".utf8)) == ["a", "b", "c"])
        #expect(FileFacts.firstLines(Data()) == [])
        let long = String(repeating: "é", count: 300)
        #expect(FileFacts.firstLines(Data(long.utf8)) == [String(repeating: "é", count: 120)])
        #expect(FileTypeDetector.mimeAndCharset("text/plain; charset=us-ascii") == ("text/plain", "us-ascii"))
        #expect(FileTypeDetector.mimeAndCharset("image/png") == ("image/png", "binary"))
        #expect(FileTypeDetector.mimeAndCharset("") == ("application/octet-stream", "binary"))
    }
}

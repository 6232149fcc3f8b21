import Foundation
import Preview
import TestSupport
import Testing

/// Without an image plug-in (an app on the portable product alone), a JPEG still never leaves with its position:
/// its Exif GPS directory and an XMP packet naming one are removed in place, the rest of its metadata and its
/// pixels kept (exiftool and vips read the result).
@Suite struct JPEGPositionRemoverTests {
    let work = TemporaryDirectory(prefix: "jpeg-position")

    func run(_ tool: String, _ arguments: [String]) throws -> String {
        let result = try ProcessRunner.run("/usr/bin/" + tool, arguments)
        #expect(result.status == 0, "\(tool) \(arguments): \(result.stderr)")
        return result.stdout
    }

    /// exiftool's tags of `file`, group:name → value.
    func tags(_ file: String) throws -> [String: String] {
        let json = try run("exiftool", ["-j", "-G", "-n", file])
        let objects = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        return (objects?.first ?? [:]).mapValues { "\($0)" }
    }

    /// A 120×80 JPEG with a position in Exif (big- or little-endian) and in XMP, a camera make and an orientation.
    func photo(_ name: String, bigEndian: Bool) throws -> String {
        let file = work.file(name)
        _ = try run("vips", ["black", file, "120", "80"])
        _ = try run(
            "exiftool",
            [
                "-overwrite_original", "-ExifByteOrder=\(bigEndian ? "Big-endian" : "Little-endian")",
                "-Make=TestCam", "-Orientation#=6", "-GPSLatitude=48.8584", "-GPSLatitudeRef=N",
                "-GPSLongitude=2.2945", "-GPSLongitudeRef=E", "-GPSAltitude=35", "-XMP:GPSLatitude=48.8584 N",
                "-XMP:GPSLongitude=2.2945 E", file,
            ])
        let before = try tags(file)
        #expect(before.keys.contains { $0.hasPrefix("EXIF:GPS") } && before.keys.contains { $0.hasPrefix("XMP:GPS") })
        return file
    }

    @Test(arguments: [true, false])
    func aJPEGLosesItsPositionAndKeepsTheRest(_ bigEndian: Bool) throws {
        let file = try photo("p-\(bigEndian).jpg", bigEndian: bigEndian)
        let original = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(JPEGPositionRemover.holdsPosition(original))
        let output = work.file("out-\(bigEndian).jpg")
        let prepared = try ImagePreparer.withoutPosition(file, to: output)
        #expect(prepared.width == 120 && prepared.height == 80 && prepared.format == .jpeg)

        let after = try tags(output)
        let left = after.keys.filter { $0.contains("GPS") }
        #expect(left.isEmpty, "position left: \(left)")
        #expect(after["EXIF:Make"] == "TestCam" && after["EXIF:Orientation"] == "6", "\(after)")
        #expect(try run("vips", ["copy", output, work.file("decoded-\(bigEndian).png")]).isEmpty)
        // No byte of the position survives anywhere in the file (48.8584 as exiftool wrote it in XMP).
        let written = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(written.range(of: Data("48.8584".utf8)) == nil)
        #expect(!JPEGPositionRemover.holdsPosition(written))
    }

    @Test func aJPEGWithoutAPositionMayGoAsItIsAndOtherFormatsAreRefusedByName() throws {
        let plain = work.file("plain.jpg")
        _ = try run("vips", ["black", plain, "10", "10"])
        #expect(!JPEGPositionRemover.holdsPosition(try Data(contentsOf: URL(fileURLWithPath: plain))))
        let png = work.file("shot.png")
        _ = try run("vips", ["black", png, "10", "10"])
        #expect(throws: ImageError.notAvailable(file: png)) {
            _ = try ImagePreparer.withoutPosition(png, to: work.file("never.jpg"))
        }
        #expect(ImageError.notAvailable(file: png).description.hasPrefix("\(png): only a JPEG's position"))
        #expect(!FileManager.default.fileExists(atPath: work.file("never.jpg")))
    }

    @Test func aDamagedExifBlockIsRefusedNeverSentWithItsPosition() throws {
        let file = try photo("damaged.jpg", bigEndian: false)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        // The first directory's offset (bytes 14-17 of the Exif segment's TIFF header) points past the block.
        let exif = try #require((0..<bytes.count - 6).first { Array(bytes[$0..<$0 + 6]) == Array("Exif\0\0".utf8) })
        for offset in exif + 10..<exif + 14 { bytes[offset] = 0x7F }
        let damaged = work.file("damaged-2.jpg")
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        #expect {
            _ = try ImagePreparer.withoutPosition(damaged, to: work.file("damaged-out.jpg"))
        } throws: { error in
            if case ImageError.undecodable(let named, _) = error { return named == damaged }
            return false
        }
        #expect(JPEGPositionRemover.holdsPosition(Data(bytes)))
    }
}

import Foundation
import OfficerLinux
import Preview
import TestSupport
import Testing

/// Fixtures are made by the tests with the vips and exiftool command-line tools.
@Suite struct ImagePreparerTests {
    init() { LinuxPlugins.install() }

    let folder = TemporaryDirectory(prefix: "images")

    @discardableResult
    func sh(_ tool: String, _ arguments: [String]) throws -> String {
        let result = try ProcessRunner.run("/usr/bin/" + tool, arguments)
        #expect(result.status == 0, "\(tool) \(arguments): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A noisy sRGB photo-like image (noise does not compress away).
    func photo(_ name: String, width: Int, height: Int, saveOptions: String = "[Q=92]") throws -> String {
        let noise = folder.file(name + ".v")
        try sh("vips", ["gaussnoise", noise, String(width), String(height)])
        try sh("vips", ["colourspace", noise, folder.file(name + "-s.v"), "srgb"])
        try sh("vips", ["cast", folder.file(name + "-s.v"), folder.file(name + "-c.v"), "uchar"])
        try sh("vips", ["copy", folder.file(name + "-c.v"), folder.file(name) + saveOptions])
        return folder.file(name)
    }

    func header(_ path: String, _ field: String) throws -> String { try sh("vipsheader", ["-f", field, path]) }

    func prepare(_ input: String, _ output: String, _ configure: (inout ImagePreparationOptions) -> Void = { _ in })
        throws -> PreparedImage
    {
        var options = ImagePreparationOptions()
        configure(&options)
        return try ImagePreparer(options: options).prepare(input, to: folder.file(output))
    }

    @Test func rotatesByEXIFResizesAndStripsGPS() throws {
        let input = try photo("camera.jpg", width: 4000, height: 3000)
        try sh(
            "exiftool",
            [
                "-q", "-overwrite_original", "-Orientation#=6", "-GPSLatitude=48.85", "-GPSLatitudeRef=N",
                "-Model=TestCam", input,
            ])
        let result = try prepare(input, "out.jpg")
        #expect(!result.usedOriginal && result.format == .jpeg)
        #expect(result.width == 1536 && result.height == 2048)
        #expect(try header(folder.file("out.jpg"), "width") == "1536")
        #expect(try sh("exiftool", ["-s3", "-GPSLatitude", "-Model", folder.file("out.jpg")]).isEmpty)
        #expect(result.bytes < (try FileManager.default.attributesOfItem(atPath: input)[.size] as! Int64))

        let kept = try prepare(input, "kept.jpg") { $0.keepMetadata = true }
        #expect(kept.width == 1536)
        #expect(try sh("exiftool", ["-s3", "-Model", folder.file("kept.jpg")]) == "TestCam")
        #expect(try sh("exiftool", ["-s3", "-n", "-Orientation", folder.file("kept.jpg")]) == "1")
    }

    @Test func alphaStaysPNGAndSmallImagesAreNotUpsized() throws {
        try sh("vips", ["black", folder.file("a.v"), "3000", "1000", "--bands", "4"])
        try sh("vips", ["copy", folder.file("a.v"), folder.file("alpha.png")])
        let result = try prepare(folder.file("alpha.png"), "alpha-out.png")
        #expect(result.format == .png && result.width == 2048 && result.height == 683)
        #expect(try header(folder.file("alpha-out.png"), "bands") == "4")
        // As JPEG the transparency goes onto white; a PNG name with --format jpeg is a contradiction, refused.
        let flat = try prepare(folder.file("alpha.png"), "alpha-out.jpg") { $0.format = .jpeg }
        #expect(flat.format == .jpeg)
        #expect(try header(folder.file("alpha-out.jpg"), "bands") == "3")
        #expect(throws: ImageError.self) {
            try prepare(folder.file("alpha.png"), "contradiction.png") { $0.format = .jpeg }
        }

        let small = try photo("small.jpg", width: 500, height: 300)
        let kept = try prepare(small, "small-out.jpg") { $0.quality = 95 }
        #expect(kept.width == 500 && kept.height == 300)
    }

    @Test func anImageThatAlreadyFitsGoesUpUntouched() throws {
        let input = try photo("tiny.jpg", width: 300, height: 200, saveOptions: "[Q=40,strip]")
        let result = try prepare(input, "tiny-out.jpg") { $0.quality = 95 }
        #expect(result.usedOriginal && result.path == input)
        #expect(!FileManager.default.fileExists(atPath: folder.file("tiny-out.jpg")))
    }

    @Test func convertsHEICCMYKAnd16BitAndReadsProgressiveAndGIF() throws {
        let base = try photo("base.png", width: 2600, height: 1800, saveOptions: "")
        // HEIC from a smooth pattern (AV1 inside: fast to encode; noise would take the encoder many seconds).
        try sh("vips", ["sines", folder.file("sines.v"), "2100", "300"])
        try sh("vips", ["linear", folder.file("sines.v"), folder.file("grey.v"), "127", "128", "--uchar"])
        try sh("vips", ["colourspace", folder.file("grey.v"), folder.file("smooth.v"), "srgb"])
        try sh("vips", ["copy", folder.file("smooth.v"), folder.file("photo.heic") + "[compression=av1]"])
        let heic = try prepare(folder.file("photo.heic"), "heic-out.jpg")
        #expect(heic.format == .jpeg && heic.width == 2048)
        #expect(try header(folder.file("heic-out.jpg"), "vips-loader") == "jpegload")

        try sh("vips", ["colourspace", base, folder.file("cmyk.v"), "cmyk"])
        try sh("vips", ["copy", folder.file("cmyk.v"), folder.file("cmyk.jpg")])
        #expect(try header(folder.file("cmyk.jpg"), "bands") == "4")
        let cmyk = try prepare(folder.file("cmyk.jpg"), "cmyk-out.jpg")
        #expect(!cmyk.usedOriginal)
        #expect(try header(folder.file("cmyk-out.jpg"), "bands") == "3")
        #expect(try header(folder.file("cmyk-out.jpg"), "interpretation").contains("sRGB"))

        try sh("vips", ["colourspace", base, folder.file("wide.v"), "rgb16"])
        try sh("vips", ["copy", folder.file("wide.v"), folder.file("wide.png")])
        #expect(try header(folder.file("wide.png"), "format").contains("USHORT"))
        let wide = try prepare(folder.file("wide.png"), "wide-out.png")
        #expect(wide.format == .png)
        #expect(try header(folder.file("wide-out.png"), "format").contains("UCHAR"))

        let progressive = try photo("progressive.jpg", width: 2500, height: 2500, saveOptions: "[Q=90,interlace]")
        #expect(try prepare(progressive, "progressive-out.jpg").width == 2048)

        // libvips reads GIFs as RGBA (first frame): they stay lossless PNG, never upsized.
        try sh("vips", ["crop", base, folder.file("small.v"), "0", "0", "300", "200"])
        try sh("vips", ["copy", folder.file("small.v"), folder.file("anim.gif")])
        let gif = try prepare(folder.file("anim.gif"), "gif-out.png")
        #expect(gif.format == .png && gif.width == 300 && gif.height == 200)
    }

    @Test func refusesDamagedUnknownAndHugeImages() throws {
        let whole = try photo("whole.jpg", width: 2000, height: 2000)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = try folder.write("cut.jpg", bytes.prefix(bytes.count / 2))
        #expect {
            try prepare(cut, "cut-out.jpg")
        } throws: { error in
            guard case ImageError.undecodable(let file, _) = error else { return false }
            return file == cut
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("cut-out.jpg")))
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!entries.contains { $0.contains("officer-tmp") })

        let text = try folder.write("notes.txt", "just words\n")
        #expect(throws: ImageError.unsupported(file: text, detail: "text/plain")) { try prepare(text, "x.jpg") }

        // A pixel bomb: 110 megapixels of black compress into about a megabyte; refused from the header alone.
        try sh("vips", ["black", folder.file("bomb.v"), "11000", "10000"])
        try sh("vips", ["copy", folder.file("bomb.v"), folder.file("bomb.jpg")])
        let bomb = folder.file("bomb.jpg")
        #expect(throws: ImageError.tooManyPixels(file: bomb, width: 11000, height: 10000, limit: 100_000_000)) {
            try prepare(bomb, "bomb-out.jpg")
        }
        #expect(throws: ImageError.self) { try prepare(whole, "q.jpg") { $0.quality = 0 } }
    }

}

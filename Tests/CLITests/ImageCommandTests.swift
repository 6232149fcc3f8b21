import Foundation
import HTTP
import Officer
import TestSupport
import Testing
import Transfer

/// `image prepare` and `put --resize` end to end.
@Suite struct ImageCommandTests {
    let server: ReferenceServer
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "image-work")

    init() async throws {
        server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
    }

    func photo(_ name: String, width: Int, height: Int) throws -> String {
        for step in [
            ["gaussnoise", work.file("n.v"), String(width), String(height)],
            ["colourspace", work.file("n.v"), work.file("s.v"), "srgb"],
            ["cast", work.file("s.v"), work.file("c.v"), "uchar"],
            ["copy", work.file("c.v"), work.file(name) + "[Q=95]"],
        ] {
            #expect(try ProcessRunner.run("/usr/bin/vips", step).status == 0)
        }
        return work.file(name)
    }

    func width(_ path: String) throws -> String {
        try ProcessRunner.run("/usr/bin/vipsheader", ["-f", "width", path]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    @Test func neverOverwritesWithoutForceAndNeverTheInput() async throws {
        let big = try photo("big.jpg", width: 4000, height: 3000)
        let original = try ProcessRunner.sha256(of: big)
        let precious = try work.write("precious.jpg", "precious bytes")
        let refused = try await cli.run(["image", "prepare", big, precious])
        #expect(
            refused.status == 5 && refused.stderr.contains("precious.jpg: already exists (use --force"),
            "\(refused.stderr)")
        #expect(try String(contentsOfFile: precious, encoding: .utf8) == "precious bytes")
        for arguments in [["image", "prepare", big, big], ["image", "prepare", "--force", big, big]] {
            let onItself = try await cli.run(arguments)
            #expect(onItself.status == 9 && onItself.stderr.contains("is the input image"), "\(onItself.stderr)")
            #expect(try ProcessRunner.sha256(of: big) == original, "the input is intact")
        }
        let forced = try await cli.run(["image", "prepare", "--force", "--max-edge", "800", big, precious])
        #expect(forced.status == 0)
        #expect(try width(precious) == "800")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: work.path).filter {
            $0.contains(".officer-")
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
        // Messages in the user's terms, naming the file.
        let pdf = try work.write(
            "spec.pdf", "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
        let notImage = try await cli.run(["image", "prepare", pdf, work.file("x.jpg")])
        // No image at all: 8, as thumb and info say it (it was 9 here and for put --resize); a damaged one stays 9.
        #expect(
            notImage.status == 8
                && notImage.stderr.contains("spec.pdf: not an image officer-files prepares (application/pdf)"),
            "\(notImage.stderr)")
        let empty = try work.write("empty.jpg", "")
        let nothing = try await cli.run(["image", "prepare", empty, work.file("e.jpg")])
        #expect(
            nothing.status == 8 && nothing.stderr.contains("empty.jpg: is empty, not an image"), "\(nothing.stderr)")
        let text = try work.write("notes.jpg", "not a picture\n")
        for arguments in [["image", "prepare", text, work.file("t.jpg")], ["put", "--resize", text, "officer:/"]] {
            let refused = try await cli.run(arguments)
            #expect(refused.status == 8 && refused.stderr.contains("notes.jpg: not an image"), "\(refused.stderr)")
        }
        let noFolder = try await cli.run(["image", "prepare", big, work.file("missing/out.jpg")])
        #expect(
            noFolder.status == 8 && noFolder.stderr.contains("missing/out.jpg: cannot write: the folder"),
            "\(noFolder.stderr)")
        let locked = try work.write("locked.jpg", try Data(contentsOf: URL(fileURLWithPath: big)))
        chmod(locked, 0)
        defer { chmod(locked, 0o644) }
        if getuid() != 0 {  // root reads anything
            let unreadable = try await cli.run(["image", "prepare", locked, work.file("y.jpg")])
            #expect(
                unreadable.status == 8 && unreadable.stderr.contains("locked.jpg: cannot read: Permission denied"),
                "\(unreadable.stderr)")
        }
    }

    /// Thumbnails of a folder holding `big.jpg` and `big.png` get a name each (they collided: "already exists", and
    /// `--force` made one replace the other), and a picture smaller than the size is never blown up, by the server
    /// (it made 256×205 of 100×80) or here.
    @Test func thumbnailsKeepTheirNamesApartAndNeverUpscale() async throws {
        try FileManager.default.createDirectory(atPath: server.root.file("Photos"), withIntermediateDirectories: true)
        for name in ["big.jpg", "big.png"] {
            let made = try ProcessRunner.run(
                "/usr/bin/convert", ["-size", "100x80", "gradient:red-blue", server.root.file("Photos/" + name)])
            #expect(made.status == 0, "\(made.stderr)")
        }
        let output = work.file("th2")
        let thumbs = try await cli.run(["thumb", "-o", output + "/", "officer:/Photos/"])
        #expect(thumbs.status == 0, "\(thumbs.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
        #expect(names == ["big.jpg.thumb.jpg", "big.png.thumb.jpg"], "\(names)")
        for name in names { #expect(try width(output + "/" + name) == "100", "\(name)") }
    }

    @Test func preparesABatchInParallel() async throws {
        let photos = try (0..<4).map { try photo("p\($0).jpg", width: 3000, height: 2000) }
        let broken = try work.write("broken.jpg", try Data(contentsOf: URL(fileURLWithPath: photos[0])).prefix(5000))
        // A PNG cut short: libvips finds it out only while writing, and says "unable to write to target" then.
        let png = work.file("whole.png")
        #expect(
            try ProcessRunner.run("/usr/bin/vips", ["perlin", png, "1500", "1500", "--uchar", "--seed", "3"]).status
                == 0)
        let cutPNG = try work.write("cut.png", try Data(contentsOf: URL(fileURLWithPath: png)).prefix(100_000))
        let out = work.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let result = try await cli.run(
            ["image", "prepare", "--max-edge", "1000", "--format", "webp"] + photos + [broken, cutPNG, out])
        // Each named by its own format, though both failed at once (libvips' error text is one for the process).
        #expect(
            result.status == 1 && result.stderr.contains("broken.jpg: damaged or truncated JPEG")
                && result.stderr.contains("cut.png: damaged or truncated PNG"), "\(result.stderr)")
        let cut = try await cli.run(["image", "prepare", "--max-edge", "100", cutPNG, out + "/"])
        #expect(
            cut.status == 9 && cut.stderr == "officer-files: \(cutPNG): damaged or truncated PNG\n", "\(cut.stderr)")
        for index in 0..<4 { #expect(try width(out + "/p\(index).webp") == "1000") }
        let single = try await cli.run(["image", "prepare", broken, work.file("x.jpg")])
        #expect(single.status == 9 && single.stderr.split(separator: "\n").count == 1)
        let quality = try await cli.run(["image", "prepare", "--quality", "0", photos[0], work.file("q.jpg")])
        #expect(quality.status == 2 && quality.stderr.contains("--quality"))
    }

    @Test func putResizesBeforeUploading() async throws {
        let big = try photo("holiday.jpg", width: 4000, height: 3000)
        let result = try await cli.run(["put", "-p", "--resize=1200", big, "officer:/Photos/"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try width(server.root.file("Photos/holiday.jpg")) == "1200")

        let broken = try work.write("cut.jpg", try Data(contentsOf: URL(fileURLWithPath: big)).prefix(20000))
        let refused = try await cli.run(["put", "--resize", broken, "officer:/Photos/"])
        #expect(
            refused.status == 9 && refused.stderr.contains("cut.jpg: damaged or truncated JPEG"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "said once: \(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: server.root.file("Photos/cut.jpg")))
        let bestEffort = try await cli.run(["put", "--resize=best-effort", broken, "officer:/Photos/"])
        // The warning in the user's terms, as the refusal: never libvips' own words ("VipsJpeg: Premature end …").
        #expect(
            bestEffort.status == 0
                && bestEffort.stderr.contains(
                    "cut.jpg: damaged or truncated JPEG; uploading it unchanged (best effort)")
                && !bestEffort.stderr.contains("Vips"), "\(bestEffort.stderr)")
        #expect(
            try ProcessRunner.sha256(of: server.root.file("Photos/cut.jpg")) == (try ProcessRunner.sha256(of: broken)))
    }

    @Test func aKilledResizedUploadResumesTheSameBytes() async throws {
        let big = try photo("large.jpg", width: 3000, height: 2400)
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)", ["--direction", "up", "--throttle", "500000"])
        let viaProxy = ["OFFICER_SERVER": proxy.url, "OFFICER_TOKEN": try cli.savedToken()]
        let arguments = ["put", "-p", "--resize=2500", "--quality", "90", "--chunk-size", "64K", big, "officer:/in/"]
        let process = try cli.launch(arguments, environment: viaProxy)
        // Killed once the server holds part of the prepared image (and so the journal its upload).
        let tus = server.state.path + "/tus"
        #expect(
            await Eventually.signal(SIGKILL, to: [process], timeout: 120) {
                try FileManager.default.contentsOfDirectory(atPath: tus).contains { name in
                    name.hasSuffix(".part")
                        && ((try? FileManager.default.attributesOfItem(atPath: tus + "/" + name)[.size] as? Int) ?? 0)
                            > 100_000
                }
            })
        process.waitUntilExit()
        let rerun = try await cli.run(arguments, environment: viaProxy)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stderr.contains("resumed after"))
        #expect(try width(server.root.file("in/large.jpg")) == "2500")
        // The prepared copy is removed once it is uploaded.
        let cache = cli.home.path + "/.cache/officer-files/prepared"
        #expect((try? FileManager.default.contentsOfDirectory(atPath: cache))?.isEmpty ?? true)
    }
}

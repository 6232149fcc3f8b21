import Foundation
import TestSupport
import Testing

/// Looking inside remote files without downloading them: archives listed and read by ranges (the bytes the
/// server sent counted at a proxy), image and PDF facts from the few ranges that hold them.
@Suite struct RemotePreviewTests {
    /// A zip written by Python's zipfile: `entries` small members, then one stored member of `bigMiB` MiB of
    /// zeros, so the central directory sits at the end of a large file.
    static func writeZip(_ path: String, entries: Int, bigMiB: Int, extra: [String: String] = [:]) throws {
        let script = """
            import sys, zipfile
            path, entries, big = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
            extra = dict(zip(sys.argv[4::2], sys.argv[5::2]))
            with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
                for name, text in extra.items():
                    z.writestr(name, text)
                for i in range(entries):
                    z.writestr("docs/%05d.txt" % i, "entry %d\\n" % i)
                if big:
                    with z.open("media/big.bin", "w", force_zip64=True) as out:
                        block = bytes(1 << 20)
                        for _ in range(big):
                            out.write(block)
            """
        let result = try ProcessRunner.run(
            "/usr/bin/python3",
            ["-c", script, path, String(entries), String(bigMiB)] + extra.flatMap { [$0.key, $0.value] })
        try #require(result.status == 0, "\(result.stderr)")
    }

    @Test func listsAZipFromItsEndAndReadsOneMember() async throws {
        try await HeavyWork.shared.run {
            let server = try await ReferenceServer.start()
            try FileManager.default.createDirectory(
                atPath: server.root.file("Backups"), withIntermediateDirectories: true)
            try Self.writeZip(server.root.file("Backups/site.zip"), entries: 50_000, bigMiB: 512)
            let size = try #require(
                try FileManager.default.attributesOfItem(atPath: server.root.file("Backups/site.zip"))[.size] as? Int64)
            let work = TemporaryDirectory(prefix: "remote-zip")
            let countFile = work.file("down.count")
            let proxy = try await startCountingProxy(
                target: "127.0.0.1:\(server.service.port)", countFile: countFile, ["--count-direction", "down"])
            defer { proxy.stop() }
            let cli = CLIRunner()
            #expect(try await cli.login(server, url: proxy.url).status == 0)
            let before = await settledCount(countFile) ?? 0

            let listed = try await cli.run(["archive", "ls", "--json", "officer:/Backups/site.zip"])
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stdout.contains("\"files\":50001"), "\(listed.stdout.suffix(300))")
            let fetched = (await settledCount(countFile) ?? 0) - before
            // The central directory of 50,000 entries is ~3.9 MB: that, the first block, headers and the API calls.
            #expect(fetched < 5_000_000 && Double(fetched) < Double(size) * 0.01, "fetched \(fetched) of \(size)")

            let member = try await cli.run(["archive", "cat", "officer:/Backups/site.zip", "docs/04711.txt"])
            #expect(member.status == 0 && member.stdout == "entry 4711\n", "\(member.stdout)\(member.stderr)")
            let missing = try await cli.run(["archive", "cat", "officer:/Backups/site.zip", "docs/nope.txt"])
            #expect(
                missing.status == 4 && missing.stderr.contains("officer:/Backups/site.zip: no member docs/nope.txt"),
                "\(missing.stderr)")
            let folder = try await cli.run(["archive", "ls", "officer:/Backups"])
            #expect(folder.status == 9 && folder.stderr.contains("is a folder"), "\(folder.stderr)")
        }
    }

    @Test func streamsATarGzFlagsATraversalAndReadsURLs() async throws {
        let server = try await ReferenceServer.start()
        let cli = CLIRunner()
        #expect(try await cli.login(server).status == 0)
        let work = TemporaryDirectory(prefix: "remote-tar")
        try work.write("in/notes/a.txt", "alpha\n")
        try work.write("in/big.bin", TestBytes.pattern(3_000_000))
        try FileManager.default.createDirectory(atPath: server.root.file("Archives"), withIntermediateDirectories: true)
        let tarred = try ProcessRunner.run(
            "/usr/bin/bsdtar",
            ["-czf", server.root.file("Archives/t.tar.gz"), "-C", work.file("in"), "big.bin", "notes"])
        try #require(tarred.status == 0, "\(tarred.stderr)")
        let listing = try await cli.run(["archive", "ls", "officer:/Archives/t.tar.gz"])
        #expect(
            listing.status == 0 && listing.stdout.contains("notes/a.txt")
                && listing.stdout.contains("2 files, 1 folder,"), "\(listing.stdout)\(listing.stderr)")
        let cat = try await cli.run(["archive", "cat", "officer:/Archives/t.tar.gz", "notes/a.txt"])
        #expect(cat.stdout == "alpha\n", "\(cat.stderr)")

        try Self.writeZip(
            server.root.file("Archives/evil.zip"), entries: 2, bigMiB: 0, extra: ["../../outside.txt": "gotcha"])
        let evil = try await cli.run(["archive", "ls", "officer:/Archives/evil.zip"])
        #expect(
            evil.status == 0 && evil.stderr.contains("warning: parent-traversal: ../../outside.txt"), "\(evil.stderr)")

        // Any web server that serves ranges: nginx, no token sent.
        let nginx = try await NginxServer.start()
        try FileManager.default.copyItem(
            atPath: server.root.file("Archives/evil.zip"), toPath: nginx.root.file("evil.zip"))
        let viaURL = try await cli.run(["-v", "archive", "ls", nginx.url + "/evil.zip"])
        #expect(viaURL.status == 0 && viaURL.stdout.contains("3 files"), "\(viaURL.stdout)\(viaURL.stderr)")
        #expect(!viaURL.stderr.contains("Authorization"), "the token stays with the Officer server")
        let member = try await cli.run(["archive", "cat", nginx.url + "/evil.zip", "docs/00001.txt"])
        #expect(member.stdout == "entry 1\n", "\(member.stderr)")
    }

    @Test func imageAndPDFFactsFromAFewRanges() async throws {
        let server = try await ReferenceServer.start()
        let work = TemporaryDirectory(prefix: "remote-facts")
        let cli = CLIRunner()
        #expect(try await cli.login(server).status == 0)
        try FileManager.default.createDirectory(atPath: server.root.file("Photos"), withIntermediateDirectories: true)
        let photo = server.root.file("Photos/p.jpg")
        // Seeded: unseeded noise differs every run, and so do the HEIC's box layout and the ranges it takes. Smooth
        // noise from vips (0.2 s), not ImageMagick's plasma (7 s), whose HEIC below also took 22 s of CPU to encode.
        #expect(
            try ProcessRunner.run(
                "/usr/bin/vips",
                ["perlin", photo + "[Q=92]", "4000", "3000", "--cell-size", "64", "--uchar", "--seed", "1"]
            ).status == 0)
        let tagged = try ProcessRunner.run(
            "/usr/bin/exiftool",
            [
                "-q", "-overwrite_original", "-n", "-Orientation=6", "-Model=Pixel 9",
                "-DateTimeOriginal=2026:05:01 10:00:00",
                "-GPSLatitude=48.1", "-GPSLatitudeRef=N", "-GPSLongitude=11.5", "-GPSLongitudeRef=E", photo,
            ])
        try #require(tagged.status == 0, "\(tagged.stderr)")
        #expect(
            try ProcessRunner.run("/usr/bin/vips", ["black", server.root.file("Photos/s.png"), "300", "200"]).status
                == 0)

        let facts = try await cli.run(["-v", "info", "officer:/Photos/p.jpg", "officer:/Photos/s.png"])
        #expect(facts.status == 0, "\(facts.stderr)")
        #expect(
            facts.stdout.contains(
                "Image: 4000×3000, EXIF orientation 6, camera Pixel 9, taken 2026:05:01 10:00:00, GPS 48.10000° N, 11.50000° E"
            ), "\(facts.stdout)")
        #expect(facts.stdout.contains("Image: 300×200, no GPS"), "\(facts.stdout)")
        let ranged = facts.stderr.split(separator: "\n").filter { $0.hasPrefix("facts: officer:/Photos/p.jpg") }
        #expect(ranged.count == 1 && ranged[0].hasSuffix(": 65536 bytes in 1 range request(s)"), "\(ranged)")
        // Kept with the version the listing names: the second look asks the listing only.
        let again = try await cli.run(["-v", "info", "officer:/Photos/p.jpg"])
        #expect(
            again.stdout.contains("EXIF orientation 6") && !again.stderr.contains("file-browser/raw"), "\(again.stderr)"
        )
        let offline = try await cli.run(["--offline", "info", "officer:/Photos/p.jpg"])
        #expect(offline.status == 0 && offline.stdout.contains("GPS 48.10000° N, 11.50000° E"), "\(offline.stderr)")

        // A HEIC whose meta box (size, EXIF location) comes after its media data: the start, then the end.
        let heic = work.file("p.heic")
        #expect(try ProcessRunner.run("/usr/bin/vips", ["copy", photo, heic]).status == 0)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/scripts/heif_meta_last.py").path
        let moved = try ProcessRunner.run("/usr/bin/python3", [script, heic, server.root.file("Photos/late.heic")])
        try #require(moved.status == 0, "\(moved.stderr)")
        let heicFacts = try await cli.run(["-v", "info", "officer:/Photos/late.heic"])
        #expect(
            heicFacts.stdout.contains(
                "Image: 4000×3000, camera Pixel 9, taken 2026:05:01 10:00:00, GPS 48.10000° N, 11.50000° E"),
            "\(heicFacts.stdout)\(heicFacts.stderr)")
        let heicLine =
            heicFacts.stderr.split(separator: "\n").first { $0.hasPrefix("facts: officer:/Photos/late.heic") } ?? ""
        let heicBytes = Int(heicLine.split(separator: " ").dropFirst(2).first ?? "") ?? .max
        #expect(heicLine.hasSuffix("in 2 range request(s)") && heicBytes < 200_000, "\(heicLine)")

        // A PDF whose page tree is written at its end, after 200 KB of content: the count comes from the tail.
        var pdf = "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n3 0 obj << /Length 200000 >> stream\n"
        pdf += String(repeating: "0 0 m 10 10 l S\n", count: 12_500) + "endstream endobj\n"
        pdf +=
            "2 0 obj << /Type /Pages /Kids [4 0 R 5 0 R 6 0 R 7 0 R] /Count 4 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
        try server.root.write("Docs/late.pdf", pdf)
        let pdfFacts = try await cli.run(["-v", "info", "officer:/Docs/late.pdf"])
        #expect(pdfFacts.stdout.contains("PDF: 4 pages"), "\(pdfFacts.stdout)\(pdfFacts.stderr)")
        #expect(
            pdfFacts.stderr.contains("facts: officer:/Docs/late.pdf: 131072 bytes in 2 range request(s)"),
            "\(pdfFacts.stderr)")
    }

    /// A 12 MP camera-like photo (orientation 6) with an embedded EXIF thumbnail of `thumbWidth`×`thumbHeight`.
    static func cameraPhoto(_ path: String, thumbWidth: Int, thumbHeight: Int, work: TemporaryDirectory) throws {
        // Smooth noise from vips: 0.2 s, where ImageMagick's plasma took 7 s of CPU a photo.
        #expect(
            try ProcessRunner.run(
                "/usr/bin/vips", ["perlin", path + "[Q=90]", "4000", "3000", "--cell-size", "64", "--uchar"]
            ).status == 0)
        let thumb = work.file("embedded-\(thumbWidth).jpg")
        #expect(
            try ProcessRunner.run("/usr/bin/convert", ["-size", "\(thumbWidth)x\(thumbHeight)", "gradient:", thumb])
                .status == 0)
        let tagged = try ProcessRunner.run(
            "/usr/bin/exiftool",
            ["-q", "-overwrite_original", "-n", "-Orientation=6", "-ThumbnailImage<=" + thumb, path])
        try #require(tagged.status == 0, "\(tagged.stderr)")
    }

    /// The JPEG's pixel size, as libvips reads it.
    static func pixelSize(_ path: String) throws -> String {
        try ProcessRunner.run("/usr/bin/vipsheader", [path]).stdout.components(separatedBy: ": ").dropFirst().first?
            .components(separatedBy: " ").first ?? ""
    }

    @Test func thumbnailsFromTheServerTheEmbeddedPictureOrADownload() async throws {
        let work = TemporaryDirectory(prefix: "thumbs")
        // A server with the thumbnail endpoint: it makes them (orientation applied), and the second look asks nothing.
        let server = try await ReferenceServer.start()
        let cli = CLIRunner()
        #expect(try await cli.login(server).status == 0)
        try FileManager.default.createDirectory(atPath: server.root.file("Phone"), withIntermediateDirectories: true)
        try Self.cameraPhoto(server.root.file("Phone/IMG_1.jpg"), thumbWidth: 320, thumbHeight: 240, work: work)
        try FileManager.default.createDirectory(atPath: work.file("a"), withIntermediateDirectories: true)
        let made = try await cli.run(["thumb", "-o", work.file("a"), "officer:/Phone/IMG_1.jpg"])
        #expect(
            made.status == 0 && made.stdout.contains("192×256") && made.stdout.contains("made by the server"),
            "\(made.stdout)\(made.stderr)")
        #expect(try Self.pixelSize(work.file("a/IMG_1.thumb.jpg")) == "192x256")
        let again = try await cli.run(["-v", "thumb", "-f", "-o", work.file("a"), "officer:/Phone/IMG_1.jpg"])
        #expect(again.stdout.contains("from the cache") && !again.stderr.contains("> GET"), "\(again.stderr)")
        let refused = try await cli.run(["thumb", "-o", work.file("a"), "officer:/Phone/IMG_1.jpg"])
        #expect(
            refused.status == 5 && refused.stderr.contains("already exists (use --force to replace it)"),
            "\(refused.stderr)")

        // A server without it: the camera's embedded picture when large enough (one range), else a download.
        let plain = try await ReferenceServer.start(arguments: ["--no-thumbnails"])
        let other = CLIRunner()
        #expect(try await other.login(plain).status == 0)
        try FileManager.default.createDirectory(atPath: plain.root.file("Phone"), withIntermediateDirectories: true)
        for index in 1...3 {
            try Self.cameraPhoto(
                plain.root.file("Phone/IMG_\(index).jpg"), thumbWidth: 320, thumbHeight: 240, work: work)
        }
        #expect(
            try ProcessRunner.run("/usr/bin/vips", ["black", plain.root.file("Phone/shot.png"), "640", "480"]).status
                == 0)
        try plain.root.write("Phone/notes.txt", "not a picture")
        try FileManager.default.createDirectory(atPath: work.file("b"), withIntermediateDirectories: true)
        let folder = try await other.run(["-v", "thumb", "-o", work.file("b"), "officer:/Phone/"])
        #expect(folder.status == 0, "\(folder.stderr)")
        #expect(
            folder.stdout.components(separatedBy: "the camera's embedded thumbnail").count - 1 == 3, "\(folder.stdout)")
        #expect(
            folder.stdout.contains("shot.thumb.jpg: 256×192") && folder.stdout.contains("downloaded and made here"),
            "\(folder.stdout)")
        #expect(!folder.stdout.contains("notes"))
        // The embedded 320×240 picture, turned as the photo's orientation 6 says and shrunk to 256.
        #expect(try Self.pixelSize(work.file("b/IMG_2.thumb.jpg")) == "192x256")
        let ranges = folder.stderr.split(separator: "\n").filter { $0.hasPrefix("< 206") && $0.contains(".jpg") }
        #expect(ranges.count == 3 && ranges.allSatisfy { $0.contains("(65536 bytes") }, "\(ranges)")
        // Larger than the embedded picture: the photo itself is fetched and thumbnailed here.
        let large = try await other.run([
            "thumb", "-f", "--size", "400", "-o", work.file("b"), "officer:/Phone/IMG_3.jpg",
        ])
        #expect(
            large.stdout.contains("300×400") && large.stdout.contains("downloaded and made here"),
            "\(large.stdout)\(large.stderr)")
        let none = try await other.run(["thumb", "-o", work.file("b"), "officer:/Phone/notes.txt"])
        #expect(none.status == 9 && none.stderr.contains("officer:/Phone/notes.txt: has no picture"), "\(none.stderr)")
        let size = try await other.run(["thumb", "--size", "5", "officer:/Phone/IMG_1.jpg"])
        #expect(size.status == 2 && size.stderr.contains("--size"), "\(size.stderr)")
    }
}

import Foundation
import TestSupport
import Testing

@Suite struct InfoCommandTests {
    @Test func emptyFilesAndFormatsOCRCannotRead() async throws {
        let server = try await ReferenceServer.start()
        let cli = CLIRunner()
        #expect(try await cli.login(server).status == 0)
        try server.root.write("Odd/empty.dat", "")
        let empty = try await cli.run(["info", "officer:/Odd/empty.dat"])
        #expect(empty.status == 0 && empty.stdout.contains("Size: 0"), "\(empty.stdout)\(empty.stderr)")
        // An X pixmap is an image to view, but not one the OCR engine reads: no ocr offered, and refused locally.
        let work = TemporaryDirectory()
        let xpm = try work.write(
            "icon.xpm",
            """
            /* XPM */
            static char *icon[] = {
            "2 2 1 1",
            "a c #000000",
            "aa",
            "aa"};

            """)
        let info = try await cli.run(["info", xpm])
        #expect(info.stdout.contains("Viewer: image") && info.stdout.contains("Actions: none"), "\(info.stdout)")
        let ocr = try await cli.run(["ocr", xpm])
        #expect(ocr.status == 9 && ocr.stderr.contains("nothing was sent"), "\(ocr.stderr)")
    }

    @Test func localAndRemoteFiles() async throws {
        let server = try await ReferenceServer.start()
        let cli = CLIRunner()
        #expect(try await cli.login(server).status == 0)
        let work = TemporaryDirectory()
        let notes = try work.write("notes.md", "# Notes\nline two\nline three\n")
        let photo = work.file("photo.jpg")
        #expect(try ProcessRunner.run("/usr/bin/vips", ["black", photo, "640", "480", "--bands", "3"]).status == 0)
        #expect(
            try ProcessRunner.run(
                "/usr/bin/exiftool",
                ["-q", "-overwrite_original", "-Model=Pocket", "-GPSLatitude=1", "-GPSLatitudeRef=N", photo]
            ).status == 0)

        let png = work.file("shot.png")
        #expect(try ProcessRunner.run("/usr/bin/vips", ["black", png, "300", "200"]).status == 0)
        let gif = work.file("anim.gif")
        #expect(try ProcessRunner.run("/usr/bin/vips", ["black", gif, "40", "30"]).status == 0)
        let plain = try await cli.run(["info", png, gif])
        #expect(plain.stdout.contains("Image: 300×200, no GPS") && plain.stdout.contains("Image: 40×30, no GPS"))

        let pdf = try work.write(
            "doc.pdf",
            """
            %PDF-1.4
            1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
            2 0 obj << /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >> endobj
            3 0 obj << /Type /Page /Parent 2 0 R >> endobj
            trailer << /Root 1 0 R >>
            %%EOF
            """)
        let pdfInfo = try await cli.run(["info", pdf])
        #expect(pdfInfo.stdout.contains("Viewer: pdf") && pdfInfo.stdout.contains("PDF: 3 pages"), "\(pdfInfo.stdout)")

        let local = try await cli.run(["info", notes, photo])
        #expect(local.status == 0, "\(local.stderr)")
        #expect(local.stdout.contains("MIME: text/markdown; charset=us-ascii (from the extension)"))
        #expect(
            local.stdout.contains("Viewer: markdown") && local.stdout.contains("Actions: tts")
                && local.stdout.contains("Text: 3 lines"))
        #expect(
            local.stdout.contains("Image: 640×480, camera Pocket, GPS position")
                && local.stdout.contains("Actions: ocr"))

        try server.root.write("clips/song.mp3", try Data(contentsOf: URL(fileURLWithPath: notes)))
        #expect(
            try ProcessRunner.run(
                "/usr/bin/ffmpeg",
                [
                    "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=duration=0.3",
                    server.root.file("clips/real.mp3"),
                ]
            ).status == 0)
        let remote = try await cli.run(["info", "--json", "officer:/clips/real.mp3"])
        #expect(
            remote.status == 0 && remote.stdout.contains("\"viewer\":\"audio\"")
                && remote.stdout.contains("\"transcribe\""))
        // Content first: a text file named .mp3 is text, whatever its name says.
        let liar = try await cli.run(["info", "officer:/clips/song.mp3"])
        #expect(liar.stdout.contains("Viewer: code"))
        let missing = try await cli.run(["info", work.file("none.txt")])
        #expect(missing.status == 8 && missing.stderr.contains("none.txt"))
        let folder = try await cli.run(["info", "officer:/clips"])
        #expect(folder.status == 9 && folder.stderr.contains("is a folder"))
        // One stream in the arguments' order: a failure is told between the results before and after it.
        let mixed = try await ProcessRunner.runDetached(
            "/bin/sh",
            [
                "-c", "\"$0\" info \"$1\" officer:/clips/none.mp3 officer:/clips/real.mp3 2>&1", ProcessRunner.cliPath,
                notes,
            ],
            environment: cli.environment())
        let text = mixed.stdout
        let first = try #require(text.range(of: "notes.md")), failure = try #require(text.range(of: "none.mp3"))
        let last = try #require(text.range(of: "real.mp3"))
        #expect(
            mixed.status == 4 && first.lowerBound < failure.lowerBound && failure.lowerBound < last.lowerBound,
            "\(text)")
    }
}

import Foundation
import TestSupport
import Testing

/// `ocr`, `tts`, `transcribe` and `extract-audio` end to end with the reference server's real engines.
@Suite struct ActionCommandTests {
    let server: ReferenceServer
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "actions")

    init() async throws {
        server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
    }

    func tool(_ path: String, _ arguments: [String]) throws {
        let result = try ProcessRunner.run(path, arguments)
        try #require(result.status == 0, "\(path) failed: \(result.stderr)")
    }

    /// An image of known text, rendered by ImageMagick.
    func renderText(_ text: String, to name: String) throws -> String {
        let path = work.file(name)
        try tool(
            "/usr/bin/convert",
            [
                "-size", "900x200", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "56", "-fill", "black",
                "-annotate", "+20+120", text, path,
            ])
        return path
    }

    /// Seconds of audio in a PCM WAV, from its header.
    func wavSeconds(_ path: String) throws -> Double {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try #require(
            data.count > 44 && data.prefix(4) == Data("RIFF".utf8) && data[8..<12] == Data("WAVE".utf8),
            "not a WAV file")
        func le32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(data[at + $1]) << (8 * $1) } }
        var offset = 12
        var byteRate = 0
        while offset + 8 <= data.count {
            let size = le32(offset + 4)
            if data[offset..<offset + 4] == Data("fmt ".utf8) { byteRate = le32(offset + 16) }
            if data[offset..<offset + 4] == Data("data".utf8) {
                try #require(byteRate > 0)
                return Double(min(size, data.count - offset - 8)) / Double(byteRate)
            }
            offset += 8 + size + size % 2
        }
        Issue.record("no data chunk")
        return 0
    }

    var inboxFiles: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: server.root.file(".officer-files/inbox"))) ?? []
    }

    @Test func ocrReadsRenderedTextAndCachesTheResult() async throws {
        let image = try renderText("Hello Officer World", to: "hello.png")
        let first = try await cli.run(["-v", "ocr", image])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "Hello Officer World\n")
        #expect(first.stderr.contains("POST http://127.0.0.1:\(server.service.port)/api/file-browser/ocr"))
        #expect(inboxFiles.isEmpty, "the uploaded copy is removed: \(inboxFiles)")

        let second = try await cli.run(["-v", "--json", "ocr", image])
        #expect(
            second.status == 0 && second.stdout.contains("\"fromCache\":true")
                && second.stdout.contains("Hello Officer World"))
        #expect(
            !second.stderr.contains("/api/file-browser/"), "an unchanged image makes no server call:\n\(second.stderr)")
        let refreshed = try await cli.run(["-v", "ocr", "--refresh", image])
        #expect(refreshed.status == 0 && refreshed.stderr.contains("/api/file-browser/ocr"))

        // A server file, into a text file; --keep-remote keeps a local target's copy in the inbox.
        try FileManager.default.copyItem(atPath: image, toPath: server.root.file("scan.png"))
        let saved = try await cli.run(["ocr", "officer:/scan.png", "-o", work.file("scan.txt")])
        #expect(saved.status == 0)
        #expect(try String(contentsOfFile: work.file("scan.txt"), encoding: .utf8) == "Hello Officer World\n")
        let again = try await cli.run(["ocr", "officer:/scan.png", "-o", work.file("scan.txt")])
        #expect(again.status == 5 && again.stderr.contains("already exists"))
        let kept = try await cli.run(["ocr", "--keep-remote", "--refresh", image])
        #expect(kept.status == 0 && inboxFiles.count == 1 && inboxFiles[0].hasSuffix("-hello.png"))
    }

    @Test func ttsMakesAudioOfPlausibleLength() async throws {
        let sentence = "The quick brown fox jumps over the lazy dog, and then it runs back home again."
        let text = try work.write("story.txt", sentence + "\n")
        let spoken = try await cli.run(["tts", text, "-o", work.path + "/audio/"])
        #expect(spoken.status == 0 && spoken.stderr.contains("Saved \(work.path)/audio/story.wav"), "\(spoken.stderr)")
        let seconds = try wavSeconds(work.file("audio/story.wav"))
        #expect(seconds > 2 && seconds < 12, "\(seconds) s for \(sentence.split(separator: " ").count) words")
        #expect(inboxFiles.isEmpty)
        let given = try await cli.run(["tts", "--text", "Good morning", "-o", work.file("morning.wav")])
        #expect(given.status == 0, "\(given.stderr)")
        let short = try wavSeconds(work.file("morning.wav"))
        #expect(short > 0.3 && short < seconds)
        // The second time comes from the cache: same bytes, no server call.
        let cached = try await cli.run(["-v", "tts", "--text", "Good morning", "-o", work.file("morning2.wav")])
        #expect(
            cached.status == 0 && !cached.stderr.contains("/api/file-browser/tts")
                && cached.stderr.contains("from the cache"))
        #expect(
            try ProcessRunner.sha256(of: work.file("morning2.wav"))
                == (try ProcessRunner.sha256(of: work.file("morning.wav"))))
        // Into a folder, a cached result gets the name a fresh one would get there, not an earlier run's -o name.
        let intoFolder = try await cli.run(["tts", "--text", "Good morning", "-o", work.path + "/other/"])
        let saved = try FileManager.default.contentsOfDirectory(atPath: work.file("other"))
        #expect(
            intoFolder.status == 0 && saved.count == 1 && saved[0] != "morning2.wav" && saved[0].hasSuffix(".wav"),
            "\(saved)")
        let fresh = try await cli.run(["tts", "--refresh", "--text", "Good morning", "-o", work.path + "/fresh/"])
        #expect(fresh.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.file("fresh")) == saved)
        // The cache kinds are shown whole.
        let stats = try await cli.run(["cache", "stats"])
        #expect(stats.stdout.contains("ai/tts"), "\(stats.stdout)")
        let kinds = stats.stdout.split(separator: "\n").filter { $0.hasPrefix("  ai/") }.map {
            $0.split(separator: " ").first.map(String.init) ?? ""
        }
        #expect(Set(kinds).count == kinds.count && kinds.allSatisfy { !$0.hasSuffix("?") }, "\(kinds)")
        // A server file: the WAV is written beside it and, with --no-download, left there.
        try server.root.write("notes/todo.md", "# Todo\nBuy milk.\n")
        let remote = try await cli.run(["tts", "--no-download", "officer:/notes/todo.md"])
        #expect(
            remote.status == 0 && remote.stdout.contains("Wrote officer:/notes/todo.wav on the server"),
            "\(remote.stdout)\(remote.stderr)")
        #expect(FileManager.default.fileExists(atPath: server.root.file("notes/todo.wav")))
    }

    @Test func transcribesSpeechAndExtractsAudioFromVideo() async throws {
        let speech = work.file("numbers.wav")
        let sentence = "one two three four five six seven eight nine ten"
        try tool("/usr/bin/espeak-ng", ["-v", "en-us", "-s", "150", "-g", "8", "-w", speech, sentence])
        let heard = try await cli.run(["transcribe", speech])
        #expect(heard.status == 0, "\(heard.stderr)")
        let words = Set(heard.stdout.split(whereSeparator: { !$0.isLetter }).map { $0.lowercased() })
        let matched = Set(sentence.split(separator: " ").map(String.init)).intersection(words)
        #expect(matched.count >= 2, "pocketsphinx heard '\(heard.stdout)'")

        let video = work.file("clip.mp4")
        try tool(
            "/usr/bin/ffmpeg",
            [
                "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-f", "lavfi",
                "-i", "sine=frequency=440", "-t", "2", "-c:v", "libx264", "-c:a", "aac", "-shortest", video,
            ])
        let extracted = try await cli.run([
            "extract-audio", "--format", "wav", video, "-o", work.file("clip-audio.wav"),
        ])
        #expect(extracted.status == 0, "\(extracted.stderr)")
        let seconds = try wavSeconds(work.file("clip-audio.wav"))
        #expect(seconds > 1.5 && seconds < 2.5)
        let mp3 = try await cli.run(["extract-audio", video, "-o", work.path + "/"])
        #expect(mp3.status == 0 && FileManager.default.fileExists(atPath: work.file("clip.mp3")))
        let head = try Data(contentsOf: URL(fileURLWithPath: work.file("clip.mp3"))).prefix(3)
        #expect(head == Data("ID3".utf8) || head.first == 0xFF)
        #expect(inboxFiles.isEmpty)
    }

    @Test func refusesWhatDoesNotFitAndReportsEngineFailures() async throws {
        let video = work.file("tone.mp3")
        try tool(
            "/usr/bin/ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440", "-t", "1", video])
        let refused = try await cli.run(["-v", "ocr", video])
        #expect(
            refused.status == 9 && refused.stderr.contains("ocr does not apply to audio/mpeg")
                && refused.stderr.contains("nothing was sent"))
        #expect(!refused.stderr.contains("> POST") && !refused.stderr.contains("< 2"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: server.root.file(".officer-files")))

        // A PNG cut after its header: a picture to content detection, which the server's engine fails on.
        let whole = try renderText("Cut", to: "whole.png")
        let broken = try work.write("broken.png", try Data(contentsOf: URL(fileURLWithPath: whole)).prefix(120))
        let failed = try await cli.run(["ocr", broken])
        #expect(
            failed.status == 9 && failed.stderr.contains(broken) && !failed.stderr.contains("inbox")
                && !failed.stderr.contains("tesseract"), "\(failed.stderr)")
        // Content over extension: random bytes named .jpg are no picture, refused before a byte is sent (it was
        // image/jpeg to `info`, uploaded, and failed in the engine on an inbox path).
        var generator = SystemRandomNumberGenerator()
        let junk = try work.write(
            "junk.jpg", Data((0..<5000).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        let info = try await cli.run(["info", junk])
        #expect(info.status == 0 && !info.stdout.contains("image/jpeg"), "\(info.stdout)")
        let notAPicture = try await cli.run(["-v", "ocr", junk])
        #expect(
            notAPicture.status == 9 && notAPicture.stderr.contains(junk)
                && notAPicture.stderr.contains("nothing was sent")
                && !notAPicture.stderr.contains("> POST"), "\(notAPicture.stderr)")
        #expect(inboxFiles.isEmpty, "the upload is removed after a failure too")

        let missing = try await cli.run(["transcribe", "officer:/nothing.wav"])
        #expect(missing.status == 4 && missing.stderr.contains("no such file"))
        let image = try renderText("Batch", to: "batch.png")
        let batch = try await cli.run(["ocr", image, "officer:/nothing.png", video])
        #expect(batch.status == 1 && batch.stdout.contains("==> \(image) <==\nBatch\n"))
        #expect(batch.stderr.contains("ocr: 1 of 3 done (0 from the cache), 2 failed"))
        let usage = try await cli.run(["tts"])
        #expect(usage.status == 2 && usage.stderr.contains("give a TARGET or --text"))
        let format = try await cli.run(["extract-audio", "--format", "flac", video])
        #expect(format.status == 2 && format.stderr.contains("--format"))
    }
}

import FileModel
import Foundation
import Journal
import Officer
import OfficerFilesCLI
import TestSupport
import Testing

/// The user's journey against the server our users really run: one with only the seed's endpoints (`--api seed`),
/// one that also answers unknown endpoints in plain text and names no features, and the full reference server.
/// Every command must do its job on each; what a server cannot do is said, never taken for "no such file".
@Suite struct SeedServerJourneyTests {
    static let servers: [[String]] = [["--api", "seed"], ["--api", "seed", "--plain-404", "--bare-plugins"], []]
    /// And a seed-only server that names every proposal among its features all the same: a 404 from a named
    /// endpoint is the endpoint's, and the seed's endpoints do the job (stat, get, ls -R, cp -r, transcode and
    /// get --zip failed with "no such file or folder").
    static let serversAndFalseFeatures = servers + [["--api", "seed", "--false-features"]]

    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "seed-work", inMemory: true)

    func report(_ result: ProcessResult) throws -> SyncSummaryRecord {
        try JSONDecoder().decode(
            SyncSummaryRecord.self, from: Data((result.stdout.split(separator: "\n").last ?? "").utf8))
    }

    func bytes(_ count: Int, seed: Int) -> Data {
        TestBytes.pattern(count, seed: UInt64(seed))
    }

    @Test(arguments: serversAndFalseFeatures)
    func everyFileCommandWorks(_ mode: [String]) async throws {
        let server = try await ReferenceServer.start(arguments: mode, inMemory: true)
        let login = try await cli.login(server)
        try #require(login.status == 0, "\(login.stderr)")
        let seed = mode.contains("seed")

        // Folders, uploads into an existing folder, to a new name, several at once.
        #expect(try await cli.run(["mkdir", "officer:/docs"]).status == 0)
        let notes = try work.write("notes.txt", "the notes\n")
        let photo = try work.write("photo.bin", bytes(700_000, seed: 3))
        let into = try await cli.run(["put", notes, "officer:/docs"])
        #expect(into.status == 0, "\(into.stderr)")
        #expect(try String(contentsOfFile: server.root.file("docs/notes.txt"), encoding: .utf8) == "the notes\n")
        let renamed = try await cli.run(["put", photo, "officer:/docs/picture.bin"])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        if seed {
            // Said once per server, as its offers are remembered: by the first put, not by every one after it.
            #expect(into.stderr.contains("does not offer resumable uploads"), "said up front: \(into.stderr)")
            #expect(!renamed.stderr.contains("does not offer resumable uploads"), "said once: \(renamed.stderr)")
        }
        // Never over a file without --force, even where the server's upload would replace it unasked.
        let over = try await cli.run(["put", photo, "officer:/docs/notes.txt"])
        #expect(over.status == 5, "\(over.stderr)")
        #expect(try String(contentsOfFile: server.root.file("docs/notes.txt"), encoding: .utf8) == "the notes\n")
        let several = try await cli.run(["put", "-f", notes, photo, "officer:/docs/"])
        #expect(several.status == 0, "\(several.stderr)")
        #expect(
            try ProcessRunner.sha256(of: server.root.file("docs/photo.bin")) == (try ProcessRunner.sha256(of: photo)))

        // A pipe: tus with a deferred length where offered, else one chunked multipart POST.
        let text = String(repeating: "a line from a pipe\n", count: 30_000)
        let piped = try await cli.run(["put", "-", "officer:/docs/piped.txt"], stdin: text)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(try String(contentsOfFile: server.root.file("docs/piped.txt"), encoding: .utf8) == text)

        // Listing, recursive listing, stat of a file and of a folder.
        let listing = try await cli.run(["ls", "officer:/docs"])
        #expect(listing.status == 0 && listing.stdout.contains("picture.bin"), "\(listing.stderr)")
        let recursive = try await cli.run(["ls", "-R", "officer:/"])
        #expect(
            recursive.status == 0 && recursive.stdout.contains("docs/picture.bin"),
            "\(recursive.stdout)\(recursive.stderr)")
        let statFile = try await cli.run(["stat", "officer:/docs/picture.bin"])
        #expect(statFile.status == 0 && statFile.stdout.contains("700000"), "\(statFile.stdout)\(statFile.stderr)")
        let statFolder = try await cli.run(["stat", "officer:/docs"])
        #expect(statFolder.status == 0, "\(statFolder.stderr)")
        let missing = try await cli.run(["stat", "officer:/docs/nothing.txt"])
        #expect(missing.status == 4, "a missing file is not found: \(missing.stderr)")

        // Downloads, cat, copy, move, remove.
        let got = work.file("got.bin")
        let get = try await cli.run(["get", "officer:/docs/picture.bin", got])
        #expect(get.status == 0, "\(get.stderr)")
        #expect(try ProcessRunner.sha256(of: got) == (try ProcessRunner.sha256(of: photo)))
        let cat = try await cli.run(["cat", "officer:/docs/notes.txt"])
        #expect(cat.status == 0 && cat.stdout == "the notes\n", "\(cat.stderr)")
        let copy = try await cli.run(["cp", "officer:/docs/notes.txt", "officer:/docs/copy.txt"])
        #expect(copy.status == 0, "\(copy.stderr)")
        #expect(try await cli.run(["mkdir", "officer:/archive"]).status == 0)
        let move = try await cli.run(["mv", "officer:/docs/copy.txt", "officer:/archive/"])
        #expect(move.status == 0, "\(move.stderr)")
        #expect(FileManager.default.fileExists(atPath: server.root.file("archive/copy.txt")))
        let remove = try await cli.run(["rm", "officer:/archive/copy.txt"])
        #expect(remove.status == 0, "\(remove.stderr)")
        #expect(!FileManager.default.fileExists(atPath: server.root.file("archive/copy.txt")))
    }

    @Test(arguments: servers)
    func syncPushesThenDoesNothingThenPulls(_ mode: [String]) async throws {
        let server = try await ReferenceServer.start(arguments: mode, inMemory: true)
        try #require(try await cli.login(server).status == 0)
        let local = work.path + "/tree"
        for index in 0..<50 { try work.write("tree/d\(index % 4)/sub/f\(index).txt", "file \(index)\n") }

        let pushed = try await cli.run(["--json", "sync", local, "officer:/backup"])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let first = try report(pushed)
        #expect(first.transferred == 50 && first.failures.isEmpty)

        // A no-op sync plans nothing and makes no upload request, whether or not the server kept the times sent.
        let again = try await cli.run(["--json", "-v", "sync", local, "officer:/backup"])
        #expect(again.status == 0, "\(again.stderr)")
        let noop = try report(again)
        #expect(noop.transferred == 0 && noop.unchanged == 50 && noop.foldersCreated == 0, "\(again.stdout)")
        // (What the upload endpoint offers may be asked beside the root's check: a question, not an upload.)
        let uploads = again.stderr.split(separator: "\n").filter {
            ($0.hasPrefix("> POST ") || $0.hasPrefix("> PATCH "))
                && ($0.contains("file-browser/upload") || $0.contains("file-browser/tus"))
        }
        #expect(uploads.isEmpty, "no upload request: \(again.stderr)")

        // --checksum on a server without checksums: said once, and size and time decide.
        let checked = try await cli.run(["--json", "sync", "--checksum", local, "officer:/backup"])
        #expect(checked.status == 0, "\(checked.stderr)")
        let checkedReport = try report(checked)
        #expect(checkedReport.transferred == 0 && checkedReport.unchanged == 50, "\(checked.stdout)")
        if mode.contains("seed") {
            #expect(
                checked.stdout.components(separatedBy: "does not offer checksums").count - 1 == 1
                    || checked.stderr.components(separatedBy: "does not offer checksums").count - 1 == 1,
                "\(checked.stdout)\(checked.stderr)")
        }

        let pulled = work.path + "/pulled"
        let pull = try await cli.run(["--json", "sync", "officer:/backup", pulled])
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(try report(pull).transferred == 50)
        // Each file says its check: the server's SHA-256, or on a seed server (no checksums) its size alone.
        let check = mode.contains("seed") ? "size" : "sha256"
        let steps = pull.stdout.split(separator: "\n").filter { $0.contains("\"kind\":\"download\"") }
        #expect(steps.count == 50 && steps.allSatisfy { $0.contains("\"checked\":\"\(check)\"") }, "\(pull.stdout)")
        for index in 0..<50 {
            let name = "d\(index % 4)/sub/f\(index).txt"
            #expect(try String(contentsOfFile: pulled + "/" + name, encoding: .utf8) == "file \(index)\n")
        }
    }

    func tool(_ path: String, _ arguments: [String], in directory: String? = nil) async throws {
        let result = try await ProcessRunner.runDetached(path, arguments, currentDirectory: directory)
        try #require(result.status == 0, "\(path): \(result.stderr)")
    }

    /// Previews, archives, zips and the server's own work, on the files of each kind of server.
    @Test(arguments: serversAndFalseFeatures)
    func previewsArchivesAndServerWork(_ mode: [String]) async throws {
        let server = try await ReferenceServer.start(arguments: mode, inMemory: true)
        try #require(try await cli.login(server).status == 0)
        try await tool("/usr/bin/convert", ["-size", "640x480", "gradient:red-blue", server.root.file("photo.jpg")])
        try await tool(
            "/usr/bin/convert",
            [
                "-size", "900x200", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "56", "-fill", "black",
                "-annotate", "+40+120",
                "Seed Server", server.root.file("scan.png"),
            ])
        _ = try work.write("src/docs/readme.txt", "hello\n")
        try await tool("/usr/bin/bsdtar", ["-a", "-cf", server.root.file("bundle.zip"), "docs"], in: work.file("src"))

        let info = try await cli.run(["info", "officer:/photo.jpg"])
        #expect(info.status == 0 && info.stdout.contains("640"), "\(info.stdout)\(info.stderr)")
        let thumb = try await cli.run(["thumb", "-o", work.file("thumbs"), "officer:/photo.jpg"])
        #expect(thumb.status == 0, "\(thumb.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: work.file("thumbs"))) ?? []).count == 1)
        let archive = try await cli.run(["archive", "ls", "officer:/bundle.zip"])
        #expect(archive.status == 0 && archive.stdout.contains("docs/readme.txt"), "\(archive.stdout)\(archive.stderr)")
        let zip = try await cli.run([
            "get", "--zip", "officer:/bundle.zip", "officer:/photo.jpg", work.file("both.zip"),
        ])
        #expect(zip.status == 0, "\(zip.stderr)")
        let listed = try await ProcessRunner.runDetached("/usr/bin/bsdtar", ["-tf", work.file("both.zip")])
        #expect(listed.stdout.contains("photo.jpg") && listed.stdout.contains("bundle.zip"), "\(listed.stdout)")
        let ocr = try await cli.run(["ocr", "officer:/scan.png"])
        #expect(ocr.status == 0 && ocr.stdout.contains("Seed Server"), "\(ocr.stdout)\(ocr.stderr)")
        let extract = try await cli.run(["extract", "--wait", "officer:/bundle.zip"])
        #expect(extract.status == 0, "\(extract.stderr)")
        #expect(FileManager.default.fileExists(atPath: server.root.file("bundle/docs/readme.txt")))

        // Transcoding: a job that stores the result beside the video where the server offers it; the seed's
        // streamed transcode saved here otherwise. Jobs: listed, or said to be none.
        try await tool(
            "/usr/bin/ffmpeg",
            [
                "-nostdin", "-y", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=duration=1:size=160x120:rate=10",
                "-c:v", "mpeg4", server.root.file("clip.avi"),
            ])
        let here = work.file("here")
        try FileManager.default.createDirectory(atPath: here, withIntermediateDirectories: true)
        let transcode = try await cli.run(["transcode", "--wait", "officer:/clip.avi"], in: here)
        #expect(transcode.status == 0, "\(transcode.stderr)")
        let jobs = try await cli.run(["jobs"])
        if mode.contains("seed") {
            #expect(transcode.stderr.contains("the server streams transcodes"), "\(transcode.stderr)")
            let saved = try await ProcessRunner.runDetached(
                "/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", here + "/clip.mp4"])
            #expect(saved.stdout.contains("h264"), "\(saved.stdout)\(saved.stderr)")
            #expect(jobs.status == 9 && jobs.stderr.contains("does not offer jobs"), "\(jobs.stderr)")
        } else {
            #expect(FileManager.default.fileExists(atPath: server.root.file("clip.mp4")))
            #expect(jobs.status == 0, "\(jobs.stderr)")
        }
    }

    /// `watch --delete-after-upload` removes a local file only once the server's bytes are confirmed: by its
    /// checksum, or on a server without one by reading the file back.
    @Test(arguments: servers)
    func aWatchDeletesOnlyWhatTheServerHolds(_ mode: [String]) async throws {
        let server = try await ReferenceServer.start(arguments: mode, inMemory: true)
        try #require(try await cli.login(server).status == 0)
        let camera = work.file("camera")
        try work.write("camera/shot.jpg", bytes(200_000, seed: 9))
        let original = try ProcessRunner.sha256(of: camera + "/shot.jpg")
        let watcher = try cli.launch(["watch", "--settle", "0.3", "--delete-after-upload", camera, "officer:/Camera"])
        defer {
            watcher.terminate()
            watcher.waitUntilExit()
        }
        let deleted = await Eventually.wait(timeout: 60) {
            !FileManager.default.fileExists(atPath: camera + "/shot.jpg")
        }
        #expect(deleted, "the local copy is removed once the server holds it")
        #expect(try ProcessRunner.sha256(of: server.root.file("Camera/shot.jpg")) == original)
    }

    /// Names a multipart form cannot carry exactly (`\\`, `"`, `%`) reach a seed-only server exactly: sent under a
    /// private name and renamed with the seed's `rename`. Before, `a\\b.txt` was stored as `ab.txt` and `quo"te.txt`
    /// as `quo%22te.txt` with "Uploaded", exit 0, and every later sync sent them again.
    @Test func namesAFormCannotCarryArriveExactly() async throws {
        let server = try await ReferenceServer.start(arguments: ["--api", "seed"], inMemory: true)
        try #require(try await cli.login(server).status == 0)
        let names = ["a\\b.txt", "quo\"te.txt", "100%25.txt", "plain.txt"]
        let files = try names.map { try work.write("names/\($0)", "bytes of \($0)\n") }
        #expect(try await cli.run(["mkdir", "officer:/Documents"]).status == 0)
        let put = try await cli.run(["put"] + files + ["officer:/Documents/"])
        #expect(put.status == 0, "\(put.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: server.root.file("Documents")).sorted()
                == names.sorted())
        for name in names {
            #expect(
                try String(contentsOfFile: server.root.file("Documents/\(name)"), encoding: .utf8)
                    == "bytes of \(name)\n")
        }
        // Replaced only when asked, and then exactly.
        try work.write("names/quo\"te.txt", "second version\n")
        #expect(try await cli.run(["put", files[1], "officer:/Documents/"]).status != 0)
        #expect(try await cli.run(["put", "--force", files[1], "officer:/Documents/"]).status == 0)
        #expect(
            try String(contentsOfFile: server.root.file("Documents/quo\"te.txt"), encoding: .utf8) == "second version\n"
        )
        // A sync sends each once, then finds nothing to do.
        let synced = try report(try await cli.run(["--json", "sync", work.file("names"), "officer:/Synced"]))
        #expect(synced.transferred == 4 && synced.failures.isEmpty, "\(synced.failures)")
        let again = try report(try await cli.run(["--json", "sync", work.file("names"), "officer:/Synced"]))
        #expect(again.transferred == 0 && again.unchanged == 4, "\(again)")
        // A pipe too.
        let piped = try await cli.run(["put", "-", "officer:/Documents/pi\\pe.txt"], stdin: "piped\n")
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(try String(contentsOfFile: server.root.file("Documents/pi\\pe.txt"), encoding: .utf8) == "piped\n")
        #expect(
            !(try FileManager.default.contentsOfDirectory(atPath: server.root.file("Documents"))).contains {
                $0.hasPrefix(".officer-upload-")
            })
    }

    /// A missing proposal is probed once, then remembered for the server (a day): the next run asks the seed's
    /// endpoint at once.
    @Test func aMissingProposalIsProbedOnceAndRemembered() async throws {
        let server = try await ReferenceServer.start(
            arguments: ["--api", "seed", "--plain-404", "--bare-plugins"], inMemory: true)
        try #require(try await cli.login(server).status == 0)
        #expect(try await cli.run(["mkdir", "officer:/docs"]).status == 0)
        let first = try await cli.run(["-v", "stat", "officer:/docs"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("file-browser/stat?path=/&"), "the probe of the root: \(first.stderr)")
        let probing = try await cli.run(["-v", "ls", "-R", "officer:/"])
        #expect(
            probing.status == 0 && probing.stderr.contains("file-browser/tree?path=/&"),
            "the probe of tree: \(probing.stderr)")
        for _ in 0..<2 {
            let again = try await cli.run(["-v", "ls", "-R", "officer:/"])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(
                !again.stderr.contains("file-browser/stat") && !again.stderr.contains("file-browser/tree?"),
                "\(again.stderr)")
        }
        let later = try await cli.run(["-v", "stat", "officer:/docs"])
        #expect(later.status == 0 && !later.stderr.contains("file-browser/stat"), "\(later.stderr)")
    }

    /// Offers remembered from a full server that the server at the same address no longer honours (a seed-only one
    /// took its place): each one's first 404 is doubted once, and the seed's endpoints do the job. Before, `ls -R`
    /// and `stat` said "no such file or folder" and a push sent everything again.
    @Test func aRememberedOfferTheServerDroppedIsForgottenOnce() async throws {
        let full = try await ReferenceServer.start(
            arguments: ["--secret", ReferenceServer.fixedSecret], inMemory: true)
        try #require(try await cli.login(full).status == 0)
        for index in 0..<5 { try work.write("tree/sub/f\(index).txt", "file \(index)\n") }
        #expect(try await cli.run(["sync", work.file("tree"), "officer:/t"]).status == 0)
        #expect(try await cli.run(["ls", "-R", "officer:/t"]).status == 0)
        #expect(try await cli.run(["stat", "officer:/t/sub/f0.txt"]).status == 0)
        let port = full.service.port
        full.service.stop()
        let seed = try await ReferenceServer.start(
            root: full.root, state: full.state, port: port, arguments: ["--api", "seed"])
        defer { seed.service.stop() }

        let pushed = try report(try await cli.run(["--json", "sync", work.file("tree"), "officer:/t"]))
        #expect(
            pushed.transferred == 0 && pushed.unchanged == 5 && pushed.failures.isEmpty,
            "nothing sent again: \(pushed.failures)")
        // Five downloads at once each meet the remembered checksum endpoint's 404: every one asks again (four of
        // them said "no such file or folder" while the first was doubting it).
        let pulled = try report(try await cli.run(["--json", "sync", "officer:/t", work.file("pulled")]))
        #expect(pulled.transferred == 5 && pulled.failures.isEmpty, "\(pulled.failures)")
        let listed = try await cli.run(["ls", "-R", "officer:/t"])
        #expect(listed.status == 0 && listed.stdout.contains("sub/f4.txt"), "\(listed.stdout)\(listed.stderr)")
        let stat = try await cli.run(["stat", "officer:/t/sub/f0.txt"])
        #expect(stat.status == 0, "\(stat.stderr)")
        let fetched = try await cli.run(["get", "officer:/t/sub/f1.txt", work.file("f1.txt")])
        #expect(fetched.status == 0, "sha256 forgotten too: \(fetched.stderr)")
        // Learnt anew and remembered: the next run goes to the seed's endpoints at once.
        let again = try await cli.run(["-v", "ls", "-R", "officer:/t"])
        #expect(again.status == 0 && !again.stderr.contains("file-browser/tree?"), "\(again.stderr)")
    }
}

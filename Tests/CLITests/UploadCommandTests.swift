import FileModel
import Foundation
import HTTP
import Journal
import Officer
import TestSupport
import Testing
import Transfer

/// `put` and `transfers` as a person runs them, SIGKILL included.
@Suite struct UploadCommandTests {
    let server: ReferenceServer
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "put-work")

    init() async throws {
        server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
    }

    func uploadedSoFar() throws -> Int64 {
        try (cli.watchedJournal()?.uploads() ?? []).reduce(0) { $0 + $1.parts.reduce(0) { $0 + $1.offset } }
    }

    func downloadedSoFar() throws -> Int64 {
        try (cli.watchedJournal()?.downloads() ?? []).reduce(0) { $0 + $1.segments.reduce(0) { $0 + $1.done } }
    }

    func bytes(_ count: Int, seed: Int) -> Data {
        TestBytes.pattern(count, seed: UInt64(seed))
    }

    @Test func putsFilesIntoAFolder() async throws {
        let a = try work.write("a.jpg", bytes(300_000, seed: 1))
        let b = try work.write("notes.txt", "hello\n")
        let result = try await cli.run(["put", "-p", a, b, "officer:/Photos/2026/"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Uploaded \(a) to officer:/Photos/2026/a.jpg (293 KiB)"))
        #expect(
            try ProcessRunner.sha256(of: server.root.file("Photos/2026/a.jpg")) == (try ProcessRunner.sha256(of: a)))
        #expect(try String(contentsOfFile: server.root.file("Photos/2026/notes.txt"), encoding: .utf8) == "hello\n")
        // mtime kept as sent.
        let local = try FileManager.default.attributesOfItem(atPath: a)[.modificationDate] as! Date
        let remote =
            try FileManager.default.attributesOfItem(atPath: server.root.file("Photos/2026/a.jpg"))[.modificationDate]
            as! Date
        #expect(abs(local.timeIntervalSince(remote)) < 0.01)

        let renamed = try await cli.run(["put", a, "officer:/Photos/cover.jpg", "--json"])
        #expect(renamed.status == 0 && renamed.stdout.contains("\"method\":\"tus\""))
        #expect(FileManager.default.fileExists(atPath: server.root.file("Photos/cover.jpg")))

        let unchecked = try await cli.run([
            "put", "--no-checksum", "--chunk-size", "64K", a, "officer:/Photos/unchecked.jpg",
        ])
        #expect(unchecked.status == 0, "\(unchecked.stderr)")
        #expect(
            try ProcessRunner.sha256(of: server.root.file("Photos/unchecked.jpg")) == (try ProcessRunner.sha256(of: a)))

        let again = try await cli.run(["put", a, "officer:/Photos/2026/"])
        #expect(again.status == 5 && again.stderr.contains("use --force to replace it"))
        let forced = try await cli.run(["put", "-f", b, "officer:/Photos/2026/a.jpg"])
        let replaced = try String(contentsOfFile: server.root.file("Photos/2026/a.jpg"), encoding: .utf8)
        #expect(forced.status == 0 && replaced == "hello\n")
    }

    @Test func sendsFileNameTypeTimeAndTheUsersMetadata() async throws {
        let notes = try work.write("notes.txt", "plain words\n")
        let result = try await cli.run(["put", "--meta", "project=alpha", "--meta", "note=a b=c", notes, "officer:/"])
        #expect(result.status == 0, "\(result.stderr)")
        // The reference server keeps each upload's Upload-Metadata in its state, decoded.
        let tus = server.state.path + "/tus"
        let states = try FileManager.default.contentsOfDirectory(atPath: tus).filter { $0.hasSuffix(".json") }
        #expect(states.count == 1)
        let state = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: tus + "/" + states[0])))
                as? [String: Any])
        let meta = try #require(state["meta"] as? [String: String])
        #expect(meta["filename"] == "notes.txt" && meta["filetype"] == "text/plain")
        #expect(meta["project"] == "alpha" && meta["note"] == "a b=c")
        let mtime = try #require(meta["mtime"].flatMap(Double.init))
        let local = try #require(try FileManager.default.attributesOfItem(atPath: notes)[.modificationDate] as? Date)
        #expect(abs(mtime - local.timeIntervalSince1970) < 0.01)
        let bad = try await cli.run(["put", "--meta", "no-equals", notes, "officer:/other.txt"])
        #expect(bad.status == 2 && bad.stderr.contains("--meta") && bad.stderr.contains("KEY=VALUE"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: server.root.file("other.txt")))
    }

    @Test func placesUploadsAsCpDoes() async throws {
        let edit = try work.write("edit.txt", "edited\n")
        let other = try work.write("other.txt", "other\n")
        try server.root.write("Odd/empty.dat", "")
        // A trailing slash means a folder; a file there is a conflict, and stays as it was.
        let slash = try await cli.run(["put", "-f", edit, "officer:/Odd/empty.dat/"])
        #expect(
            slash.status == 5 && slash.stderr.contains("officer:/Odd/empty.dat: is a file, not a folder"),
            "\(slash.stderr)")
        #expect(try String(contentsOfFile: server.root.file("Odd/empty.dat"), encoding: .utf8) == "")
        // Several files need an existing folder; --parents creates it.
        let several = try await cli.run(["put", edit, other, "officer:/new"])
        #expect(
            several.status == 4 && several.stderr.contains("officer:/new: no such folder (--parents creates it)"),
            "\(several.stderr)")
        #expect(!FileManager.default.fileExists(atPath: server.root.file("new")))
        let created = try await cli.run(["put", "--parents", edit, other, "officer:/new"])
        #expect(
            created.status == 0 && FileManager.default.fileExists(atPath: server.root.file("new/other.txt")),
            "\(created.stderr)")
        // One file to a missing name goes under that name; its parent must exist.
        let named = try await cli.run(["put", edit, "officer:/Odd/renamed.txt"])
        #expect(named.status == 0)
        #expect(try String(contentsOfFile: server.root.file("Odd/renamed.txt"), encoding: .utf8) == "edited\n")
        let noParent = try await cli.run(["put", edit, "officer:/up/deep/big.bin"])
        #expect(
            noParent.status == 4 && noParent.stderr.contains("officer:/up/deep: no such folder (--parents creates it)"),
            "\(noParent.stderr)")
        let withParent = try await cli.run(["put", "-p", edit, "officer:/up/deep/big.bin"])
        #expect(
            withParent.status == 0 && FileManager.default.fileExists(atPath: server.root.file("up/deep/big.bin")),
            "\(withParent.stderr)")
        // A local name the one name rule refuses is refused before anything is sent, naming it.
        let tabbed = try work.write("tab\tname.txt", "t")
        let refused = try await cli.run(["put", tabbed, "officer:/Odd/"])
        #expect(refused.status == 2 && refused.stderr.contains("control character"), "\(refused.stderr)")
        // Names with a backslash go up and come back like any other.
        let slashName = try work.write("back\\slash.txt", "b")
        #expect(try await cli.run(["put", slashName, "officer:/Odd/"]).status == 0)
        for arguments in [
            ["stat", "officer:/Odd/back\\slash.txt"], ["cat", "officer:/Odd/back\\slash.txt"],
            ["rm", "officer:/Odd/back\\slash.txt"],
        ] {
            let result = try await cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
    }

    /// A file whose name is not UTF-8: refused by its name, escaped, before anything goes (decoded, the argument
    /// named another file: "caf\u{FFFD}.txt: no such file or folder").
    @Test func aNameThatIsNotUTF8IsRefusedByName() async throws {
        _ = try work.write("ok.txt", "fine\n")
        // The shell passes the bytes: a Process's arguments are Strings.
        let script =
            #"printf b > "$(printf 'caf\351.txt')" && exec "$0" put ok.txt "$(printf 'caf\351.txt')" officer:/"#
        let result = try await ProcessRunner.runDetached(
            "/bin/sh", ["-c", script, ProcessRunner.cliPath], environment: cli.environment(),
            currentDirectory: work.path)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(
            result.stderr
                == #"officer-files: caf\xe9.txt: a name that is not UTF-8 (names on a server are UTF-8); rename it"#
                + "\n", "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: server.root.file("ok.txt")), "nothing sent")
    }

    @Test func badInputIsRefusedClearly() async throws {
        let missing = try await cli.run(["put", work.file("nope.bin"), "officer:/"])
        #expect(missing.status == 8 && missing.stderr.contains("nope.bin: no such file"))
        let folder = try await cli.run(["put", work.path, "officer:/"])
        #expect(folder.status == 8 && folder.stderr.contains("is a folder"))
        let file = try work.write("x.bin", "x")
        let localDest = try await cli.run(["put", file, "/tmp/elsewhere"])
        #expect(
            localDest.status == 2
                && localDest.stderr.contains(
                    "DEST must be a remote path (officer:/path, NAME:/path, NAME:bucket/key) or a tus URL"),
            "\(localDest.stderr)")
        let chunk = try await cli.run(["put", "--chunk-size", "1", file, "officer:/"])
        #expect(chunk.status == 2 && chunk.stderr.contains("--chunk-size"))
        let traversal = try await cli.run(["put", file, "officer:/../x/"])
        #expect(traversal.status == 2)
    }

    /// In either resumable form (tus, the IETF draft's), a killed `put` is listed and the same command resumes it.
    @Test(arguments: ["tus", "ietf"])
    func resumesAfterSIGKILLAndListsUnfinishedTransfers(form: String) async throws {
        let big = try work.write("big.bin", bytes(5_000_000, seed: 2))
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)", ["--direction", "up", "--throttle", "1000000"])
        let viaProxy = ["OFFICER_SERVER": proxy.url, "OFFICER_TOKEN": try cli.savedToken()]
        let put = ["put", "-p", "--resumable", form, "--chunk-size", "256K", big, "officer:/in/"]
        let process = try cli.launch(put, environment: viaProxy)
        #expect(await Eventually.signal(SIGKILL, to: [process]) { try uploadedSoFar() > 0 })
        process.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: server.root.file("in/big.bin")))

        let listed = try await cli.run(["transfers", "list"], environment: viaProxy)
        #expect(listed.status == 0 && listed.stdout.contains("upload    \(big) -> officer:/in/big.bin"))

        #expect(
            try TransferJournal(path: cli.journalPath).uploads().first?.dialect
                == (form == "ietf" ? .ietf(version: 6) : .tus))
        let rerun = try await cli.run(put, environment: viaProxy)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stderr.contains("resumed after"))
        #expect(try ProcessRunner.sha256(of: server.root.file("in/big.bin")) == (try ProcessRunner.sha256(of: big)))
        let empty = try await cli.run(["transfers", "list"])
        #expect(empty.stdout.contains("No unfinished transfers."))
    }

    @Test func ctrlCPausesAndTheSameCommandContinues() async throws {
        let big = try work.write("paused.bin", bytes(5_000_000, seed: 8))
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)", ["--direction", "up", "--throttle", "1000000"])
        let viaProxy = ["OFFICER_SERVER": proxy.url, "OFFICER_TOKEN": try cli.savedToken()]
        let arguments = ["put", "--chunk-size", "256K", big, "officer:/"]
        let process = try cli.launch(arguments, environment: viaProxy)
        #expect(await Eventually.signal(SIGINT, to: [process], timeout: 90) { try uploadedSoFar() >= 512 << 10 })
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        // Paused, not discarded: the journal keeps the upload and the server its bytes.
        let confirmed = try uploadedSoFar()
        #expect(confirmed >= 512 << 10, "\(confirmed)")
        // The server keeps at least that (more when the throttling proxy still held a whole chunk and passed it on).
        let tus = server.state.path + "/tus"
        let parts = try FileManager.default.contentsOfDirectory(atPath: tus).filter { $0.hasSuffix(".part") }
        #expect(parts.count == 1, "\(parts)")
        let onServer = try #require(
            try FileManager.default.attributesOfItem(atPath: tus + "/" + parts[0])[.size] as? Int64)
        #expect(onServer >= confirmed)
        // The list shows what the server confirmed, not 0.
        let listed = try await cli.run(["transfers", "list"], environment: viaProxy)
        #expect(
            listed.stdout.contains(
                "upload    \(big) -> officer:/paused.bin  \(ByteCountFormat.string(confirmed)) / 4.77 MiB"),
            "\(listed.stdout)")
        let rerun = try await cli.run(arguments, environment: viaProxy)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(
            rerun.stderr.contains("paused.bin: resuming at") && rerun.stderr.contains("(the server has it)"),
            "\(rerun.stderr)")
        #expect(rerun.stderr.contains("resumed after"), "\(rerun.stderr)")
        #expect(try ProcessRunner.sha256(of: server.root.file("paused.bin")) == (try ProcessRunner.sha256(of: big)))
    }

    @Test func transfersResumeAndClean() async throws {
        let big = try work.write("r.bin", bytes(3_000_000, seed: 3))
        try server.root.write("remote.bin", bytes(3_000_000, seed: 4))
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)", ["--direction", "both", "--throttle", "600000"])
        let viaProxy = ["OFFICER_SERVER": proxy.url, "OFFICER_TOKEN": try cli.savedToken()]
        let upload = try cli.launch(["put", "--chunk-size", "128K", big, "officer:/"], environment: viaProxy)
        let download = try cli.launch(["get", "officer:/remote.bin", work.file("remote.bin")], environment: viaProxy)
        #expect(
            await Eventually.signal(SIGKILL, to: [upload, download], timeout: 90) {
                try uploadedSoFar() > 0 && downloadedSoFar() > 0
            })
        upload.waitUntilExit()
        download.waitUntilExit()
        let listed = try await cli.run(["transfers", "list", "--json"], environment: viaProxy)
        #expect(listed.stdout.split(separator: "\n").count == 2, "\(listed.stdout)")

        let resumed = try await cli.run(["transfers", "resume"], environment: viaProxy)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try ProcessRunner.sha256(of: server.root.file("r.bin")) == (try ProcessRunner.sha256(of: big)))
        #expect(
            try ProcessRunner.sha256(of: work.file("remote.bin"))
                == (try ProcessRunner.sha256(of: server.root.file("remote.bin"))))

        // clean: a new interrupted upload is removed from the server and forgotten.
        try FileManager.default.removeItem(atPath: server.root.file("r.bin"))
        let again = try cli.launch(["put", "--chunk-size", "128K", big, "officer:/"], environment: viaProxy)
        #expect(await Eventually.signal(SIGKILL, to: [again]) { try uploadedSoFar() > 0 })
        again.waitUntilExit()
        let cleaned = try await cli.run(["transfers", "clean"], environment: viaProxy)
        #expect(cleaned.status == 0 && cleaned.stdout.contains("removed the partial upload"))
        // Only the record of the finished upload stays on the server; the interrupted one is gone, bytes and all.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: server.state.path + "/tus")
        #expect(leftovers.filter { $0.hasSuffix(".part") }.isEmpty && leftovers.count == 1, "\(leftovers)")
        #expect(try await cli.run(["transfers", "list"]).stdout.contains("No unfinished transfers."))
    }
}

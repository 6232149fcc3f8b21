import FileModel
import Foundation
import HTTP
import Journal
import Officer
import TestSupport
import Testing
import Transfer

/// S3 remotes end to end against a real OpenStack Swift store (s3api): `remote add`, every file command on
/// `NAME:bucket/path`, a killed multipart upload resumed without re-sending the store's parts, a replaced object
/// under a killed download, bad keys, a missing bucket, a 503 with Retry-After, sync both ways, rclone interop.
@Suite struct ObjectStoreCommandTests {
    let store: ObjectStoreServer
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "s3", inMemory: true)

    init() async throws {
        store = try await ObjectStoreServer.shared()
    }

    /// Adds remote `name` for `endpoint` (the store by default) with the test keys.
    @discardableResult
    func addRemote(_ name: String = "st", endpoint: String? = nil, secret: String? = nil, check: Bool = true)
        async throws -> ProcessResult
    {
        try await cli.run(
            [
                "remote", "add", name, "--s3", "--endpoint", endpoint ?? store.url, "--access-key", store.accessKey,
                "--secret-stdin",
            ]
                + (check ? [] : ["--no-check"]),
            stdin: (secret ?? store.secretKey) + "\n")
    }

    func bucket(_ stem: String) async throws -> String {
        let name = ObjectStoreServer.freshBucket(stem)
        let made = try await cli.run(["mkdir", "st:\(name)"])
        #expect(made.status == 0, "\(made.stderr)")
        return name
    }

    func bytes(_ count: Int, seed: Int) -> Data {
        TestBytes.pattern(count, seed: UInt64(seed))
    }

    /// A file of random MiB written by dd, off Swift's shared pool: building tens of megabytes byte by byte in a
    /// debug build would hold one of its two threads for seconds and delay every other test's timing.
    func randomFile(_ name: String, mebibytes: Int) async throws -> String {
        try await CLITests.randomFile(at: work.file(name), mebibytes: mebibytes)
    }

    func mtime(_ path: String) -> Double {
        var info = stat()
        stat(path, &info)
        return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    }

    @Test func remoteAddChecksTheKeysAndKeepsTheSecretPrivate() async throws {
        let wrong = try await addRemote(secret: "not-the-secret")
        #expect(wrong.status == 3, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("access denied"))
        #expect(try await cli.run(["remote", "list"]).stdout.contains("No remotes"))
        let added = try await addRemote()
        #expect(added.status == 0, "\(added.stderr)")
        let listed = try await cli.run(["remote", "list"])
        #expect(listed.stdout.contains("st: s3 \(store.url)"))
        #expect(!listed.stdout.contains(store.secretKey) && !listed.stderr.contains(store.secretKey))
        var info = stat()
        #expect(stat(cli.configPath, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(try await addRemote().status == 5)  // exists: --force replaces
        #expect(
            try await cli.run(
                ["remote", "add", "officer", "--s3", "--endpoint", store.url, "--access-key", "k", "--secret-stdin"],
                stdin: "s\n"
            ).status == 2)
        #expect(try await cli.run(["remote", "remove", "st"]).status == 0)
        #expect(try await cli.run(["ls", "st:"]).status != 0)
    }

    /// Locations mean the same on every remote: a name that is a folder takes a file in, an existing bucket is a
    /// conflict as an existing folder is, and a command that cannot work on S3 says so in one line instead of
    /// taking `st:bucket/x` for an Officer or a local path.
    @Test func locationsMeanTheSameAsOnOfficer() async throws {
        try await addRemote()
        let name = try await bucket("places")
        let small = try work.write("note.txt", "into the folder\n")
        #expect(try await cli.run(["put", small, "st:\(name)/folder/first.txt"]).status == 0)
        let into = try await cli.run(["put", small, "st:\(name)/folder"])
        #expect(into.status == 0, "\(into.stderr)")
        #expect(
            try await cli.run(["ls", "st:\(name)/folder"]).stdout == "first.txt\nnote.txt\n",
            "into the folder, not beside it")
        let again = try await cli.run(["mkdir", "st:\(name)"])
        #expect(again.status == 5, "\(again.stderr)")
        #expect(try await cli.run(["mkdir", "-p", "st:\(name)"]).status == 0)
        // mv and cp are copies inside the store; a move removes the source only once the copy is there.
        let moved = try await cli.run(["mv", "st:\(name)/folder/note.txt", "st:\(name)/moved.txt"])
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(try await cli.run(["cat", "st:\(name)/moved.txt"]).stdout == "into the folder\n")
        #expect(try await cli.run(["ls", "st:\(name)/folder"]).stdout == "first.txt\n", "the source is gone")
        let over = try await cli.run(["cp", "st:\(name)/moved.txt", "st:\(name)/folder/first.txt"])
        #expect(over.status == 5, "never over an object without --force: \(over.stderr)")
        let folderWithoutR = try await cli.run(["cp", "st:\(name)/folder", "st:\(name)/other"])
        #expect(folderWithoutR.status != 0 && folderWithoutR.stderr.contains("-r"), "\(folderWithoutR.stderr)")
        let copied = try await cli.run(["cp", "-r", "st:\(name)/folder", "st:\(name)/backup/"])
        #expect(copied.status == 0, "\(copied.stderr)")
        let backup = try await cli.run(["ls", "-R", "st:\(name)/backup"])
        #expect(backup.stdout == "folder/first.txt\n", "under the source folder's name: \(backup.stdout)")
        #expect(try await cli.run(["mv", "st:\(name)/moved.txt", "st:\(name)/folder"]).status == 0)
        #expect(
            try await cli.run(["ls", "st:\(name)/folder"]).stdout == "first.txt\nmoved.txt\n",
            "into the existing folder")
        let across = try await cli.run(["cp", "st:\(name)/folder/first.txt", "officer:/first.txt"])
        #expect(across.status == 9 && across.stderr.contains("sync copies between them"), "\(across.stderr)")
        // No server action is offered for an object (they run on Officer files and local ones).
        let info = try await cli.run(["info", "st:\(name)/folder/first.txt"])
        #expect(info.status == 0 && info.stdout.contains(" Actions: none"), "\(info.stdout)\(info.stderr)")
        for command in [
            ["search", "note", "st:\(name)/"], ["thumb", "st:\(name)/folder/first.txt"],
            ["ocr", "st:\(name)/folder/first.txt"], ["get", "--zip", "st:\(name)/folder", work.file("f.zip")],
        ] {
            let refused = try await cli.run(command)
            #expect(refused.status == 9, "\(command): \(refused.stderr)")
            #expect(
                refused.stderr.contains("st is an S3 remote") && refused.stderr.split(separator: "\n").count == 1,
                "\(refused.stderr)")
        }
    }

    /// `put` plans a bucket's uploads as an Officer server's: a photo prepared on the way (`--resize` was
    /// refused for any destination but Officer), into the folder under its prepared name; tus-only options are
    /// refused in the library's words.
    @Test func putPreparesPhotosForABucketToo() async throws {
        try await addRemote()
        let name = try await bucket("photos")
        let source = work.file("big.jpg")
        for step in [
            ["gaussnoise", work.file("n.v"), "1600", "1200"],
            ["colourspace", work.file("n.v"), work.file("s.v"), "srgb"],
            ["cast", work.file("s.v"), work.file("c.v"), "uchar"], ["copy", work.file("c.v"), source + "[Q=95]"],
        ] {
            #expect(try ProcessRunner.run("/usr/bin/vips", step).status == 0)
        }
        let put = try await cli.run(["put", "--resize=800", source, "st:\(name)/in/"])
        #expect(put.status == 0, "\(put.stderr)")
        let back = work.file("back.jpg")
        #expect(try await cli.run(["get", "st:\(name)/in/big.jpg", back]).status == 0)
        let width = try ProcessRunner.run("/usr/bin/vipsheader", ["-f", "width", back]).stdout
        #expect(width.trimmingCharacters(in: .whitespacesAndNewlines) == "800")
        let parts = try await cli.run(["put", "--parts", "4", source, "st:\(name)/in/other.jpg"])
        #expect(parts.status == 2 && parts.stderr.contains("parallel parts are for tus uploads"), "\(parts.stderr)")
    }

    @Test func everyFileCommandOnABucket() async throws {
        try await addRemote()
        let name = try await bucket("files")
        let small = try work.write("small.txt", "hello object store\n")
        let large = try await randomFile("large.bin", mebibytes: 40)  // above the multipart threshold
        #expect(try await cli.run(["put", small, "st:\(name)/"]).status == 0)
        let put = try await cli.run(["put", large, "st:\(name)/deep/er/"])
        #expect(put.status == 0, "\(put.stderr)")
        #expect(try await cli.run(["put", small, "st:\(name)/"]).status == 5)  // exists without --force
        #expect(try await cli.run(["put", "--force", small, "st:\(name)/small.txt"]).status == 0)

        #expect(try await cli.run(["ls", "st:"]).stdout.contains(name + "/"))
        #expect(try await cli.run(["ls", "st:\(name)"]).stdout == "deep/\nsmall.txt\n")
        #expect(try await cli.run(["ls", "-R", "st:\(name)"]).stdout == "deep/er/large.bin\nsmall.txt\n")
        let long = try await cli.run(["ls", "-l", "st:\(name)/deep/er"])
        #expect(long.stdout.contains("41943040") && long.stdout.contains("large.bin"))

        let stat = try await cli.run(["--json", "stat", "st:\(name)/deep/er/large.bin"])
        let entry = try JSONSerialization.jsonObject(with: Data(stat.stdout.utf8)) as? [String: Any]
        #expect(entry?["sha256"] as? String == (try ProcessRunner.sha256(of: large)))
        // JSON has milliseconds (docs/JSON.md); the metadata keeps nanoseconds, which a pull's no-op sync shows.
        #expect(entry?["modified"] as? String == TimeStamp.json(mtime(large)), "\(stat.stdout)")

        let back = work.path + "/back.bin"
        let got = try await cli.run(["get", "st:\(name)/deep/er/large.bin", back])
        #expect(got.status == 0, "\(got.stderr)")
        #expect(try ProcessRunner.sha256(of: back) == (try ProcessRunner.sha256(of: large)))
        #expect(abs(mtime(back) - mtime(large)) < 0.002)
        #expect(try await cli.run(["get", "st:\(name)/deep/er/large.bin", back]).status == 5)  // exists without --force
        #expect(try await cli.run(["cat", "st:\(name)/small.txt"]).stdout == "hello object store\n")
        let info = try await cli.run(["info", "st:\(name)/small.txt"])
        #expect(
            info.stdout.contains("text/plain") && info.stdout.contains("Start: hello object store"), "\(info.stdout)")

        let missing = try await cli.run(["get", "st:\(name)/nothing.txt", work.path + "/x"])
        #expect(
            missing.status == 4 && missing.stderr.contains("st:\(name)/nothing.txt: no such object"),
            "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.path + "/x"))
        // A folder that is not there is told as one, and found missing as Officer's are (exit 4, not a local file's 8).
        let noFolder = try await cli.run(["ls", "st:\(name)/nothing/"])
        #expect(
            noFolder.status == 4 && noFolder.stderr.contains("st:\(name)/nothing/: no such folder"),
            "\(noFolder.stderr)")
        let noSource = try await cli.run(["sync", "st:\(name)/nothing", work.path + "/pulled"])
        #expect(
            noSource.status == 4 && noSource.stderr.contains("st:\(name)/nothing: no such folder"),
            "\(noSource.stderr)")
        #expect(try await cli.run(["get", "st:\(name)/deep", work.path + "/x"]).status == 9)  // a folder, not a file
        let folder = try await cli.run(["rm", "st:\(name)/deep"])
        #expect(folder.status == 9 && folder.stderr.contains("-r"))
        #expect(try await cli.run(["rm", "-r", "st:\(name)/deep"]).status == 0)
        #expect(try await cli.run(["rm", "st:\(name)/deep"]).status == 4)
        #expect(try await cli.run(["rm", "-f", "st:\(name)/deep"]).status == 0)
        #expect(try await cli.run(["rm", "-r", "st:\(name)"]).status == 0)
        let gone = try await cli.run(["ls", "st:\(name)"])
        #expect(gone.status == 4 && gone.stderr.contains("st:\(name): no such bucket"))
    }

    @Test func aKilledMultipartUploadSendsOnlyThePartsTheStoreLacks() async throws {
        try await HeavyWork.shared.run {
            let counted = work.path + "/count"
            let proxy = try await startCountingProxy(target: "127.0.0.1:\(store.port)", countFile: counted)
            try await addRemote(endpoint: proxy.url)
            let name = try await bucket("resume")
            // Twenty 8 MiB parts, four at a time: enough parts that half of them are a real resume.
            let size = 160 << 20
            let file = try await randomFile("big.bin", mebibytes: size >> 20)
            // Named as typed in its folder, relative: the journal keeps it absolute, so the rerun, `transfers list`
            // and a sync find it from any folder.
            let first = try cli.launch(["put", "--bwlimit", "40M", "big.bin", "st:\(name)/"], in: work.path)
            // Killed once about half of it has gone through the proxy.
            let killed = await Eventually.signal(SIGKILL, to: [first], timeout: 60) {
                ((try? String(contentsOfFile: counted, encoding: .utf8)).flatMap { Int($0) } ?? 0) > size / 2
            }
            #expect(killed)
            first.waitUntilExit()
            let beforeRerun = await settledCount(counted) ?? 0
            #expect(try await cli.run(["transfers", "list"]).stdout.contains("in parts"))
            let rerun = try await cli.run(["--json", "put", "big.bin", "st:\(name)/"], in: work.path)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            let row =
                try JSONSerialization.jsonObject(with: Data(rerun.stdout.split(separator: "\n").last!.utf8))
                as? [String: Any]
            let resumed = row?["resumedBytes"] as? Int ?? 0
            #expect(resumed >= size / 4, "resumed only \(resumed) bytes")
            let total = await settledCount(counted) ?? 0
            // Requests, headers and the parts cut off in flight (four at most, 8 MiB each) are all that may go twice.
            let resent = Int(total) - size
            #expect(resent < 4 * (8 << 20) + (1 << 20), "sent \(total) bytes in all for \(size): \(resent) again")
            #expect(Int(total - beforeRerun) < size - resumed + (1 << 20), "the rerun sent parts the store had")
            #expect(try await cli.run(["transfers", "list"]).stdout.contains("No unfinished transfers"))
            let back = work.path + "/back.bin"
            #expect(try await cli.run(["get", "st:\(name)/big.bin", back]).status == 0)
            #expect(
                try await ProcessRunner.sha256Detached(of: back) == (try await ProcessRunner.sha256Detached(of: file)))
            proxy.stop()
        }
    }

    /// The store's unfinished uploads in `bucket`, asked directly.
    func unfinishedUploads(_ bucket: String) async throws -> [ObjectStoreClient.UnfinishedUpload] {
        try await storeClient().unfinishedUploads(bucket: bucket, prefix: "")
    }

    func storeClient() throws -> ObjectStoreClient {
        ObjectStoreClient(
            endpoint: try ObjectStoreEndpoint(url: store.url), accessKey: store.accessKey,
            secretKey: store.secretKey, http: TestEngine.curl.client())
    }

    /// Each moment a kill can leave something behind, then the run that ends it: the journal keeps no upload and
    /// the store no unfinished one. Before, an upload the store completed just before the kill stayed journaled
    /// for good (every later sync found its file unchanged; `put` sent it all again), and one started but never
    /// journaled stayed on the store.
    @Test func killsLeaveNoUnfinishedUploadBehind() async throws {
        try await HeavyWork.shared.run {
            let counted = work.path + "/count"
            let proxy = try await startCountingProxy(target: "127.0.0.1:\(store.port)", countFile: counted)
            defer { proxy.stop() }
            try await addRemote(endpoint: proxy.url)
            let name = try await bucket("kills")
            let file = try await randomFile("storm/one.bin", mebibytes: 34)
            let sent: @Sendable () -> Int = {
                (try? String(contentsOfFile: counted, encoding: .utf8)).flatMap { Int($0) } ?? 0
            }
            // Killed between starting an upload and journaling it: the store holds one no journal names.
            let orphan = try await storeClient().startMultipart(bucket: name, key: "one.bin", metadata: [:])
            // Killed halfway: the journal holds the upload; the rerun completes it.
            let first = try cli.launch(["put", "--bwlimit", "20M", file, "st:\(name)/"])
            #expect(await Eventually.signal(SIGKILL, to: [first], timeout: 60) { sent() > 16 << 20 })
            first.waitUntilExit()
            let journaled = try TransferJournal(path: cli.journalPath).objectUploads()
            #expect(journaled.count == 1)
            let rerun = try await cli.run(["put", file, "st:\(name)/"])
            #expect(rerun.status == 0, "\(rerun.stderr)")
            #expect(try await unfinishedUploads(name).isEmpty, "the orphan \(orphan) was aborted")
            // Killed after the store completed it, before the journal forgot it.
            try TransferJournal(path: cli.journalPath).save(journaled[0])
            let settled = await settledCount(counted) ?? 0
            let again = try await cli.run(["--json", "put", file, "st:\(name)/"])
            #expect(again.status == 0, "\(again.stderr)")
            #expect((await settledCount(counted) ?? 0) - settled < 1 << 20, "nothing sent again")
            #expect(try await cli.run(["transfers", "list"]).stdout.contains("No unfinished transfers"))
            // The same left behind for a sync, which finds the file unchanged.
            try TransferJournal(path: cli.journalPath).save(journaled[0])
            let sync = try await cli.run(["sync", work.file("storm"), "st:\(name)"])
            #expect(sync.status == 0 && sync.stderr.contains("1 unchanged"), "\(sync.stderr)")
            #expect(try await cli.run(["transfers", "list"]).stdout.contains("No unfinished transfers"))

            // A storm: a sync of three files killed five times, each run after 6 MiB more (or when it ended first),
            // then run to its end.
            for index in 0..<2 { _ = try await randomFile("storm/f\(index).bin", mebibytes: 34) }
            let folder = work.file("storm")
            for _ in 1...5 {
                let start = sent()
                let run = try cli.launch(["sync", "--bwlimit", "30M", folder, "st:\(name)/stormed"])
                _ = await Eventually.signal(SIGKILL, to: [run], timeout: 60) {
                    !run.isRunning || sent() > start + (6 << 20)
                }
                run.waitUntilExit()
            }
            let last = try await cli.run(["sync", folder, "st:\(name)/stormed"])
            #expect(last.status == 0, "\(last.stderr)")
            #expect(try await cli.run(["transfers", "list"]).stdout.contains("No unfinished transfers"))
            #expect(try await unfinishedUploads(name).isEmpty)
            let back = try await cli.run(["get", "st:\(name)/stormed/f1.bin", work.file("f1.back")])
            #expect(back.status == 0)
            #expect(
                try await ProcessRunner.sha256Detached(of: work.file("f1.back"))
                    == (try await ProcessRunner.sha256Detached(of: work.file("storm/f1.bin"))))
        }
    }

    /// `ls -l` and `stat` of an object show one time, the file's own stored with it (ls showed when the store
    /// received the object), whether this tool remembers it or asks (a runner with a journal of its own).
    @Test func listingsShowTheFilesOwnTime() async throws {
        try await addRemote()
        let name = try await bucket("times")
        let file = try work.write("old.txt", "an old file\n")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_600_000_000.25)], ofItemAtPath: file)
        #expect(try await cli.run(["put", file, "st:\(name)/"]).status == 0)
        let other = CLIRunner()
        #expect(
            try await other.run(
                [
                    "remote", "add", "st", "--s3", "--endpoint", store.url, "--access-key", store.accessKey,
                    "--secret-stdin",
                ], stdin: store.secretKey + "\n"
            ).status == 0)
        for runner in [cli, other] {
            let listed = try await runner.run(["ls", "-l", "st:\(name)/"])
            #expect(listed.status == 0 && listed.stdout.contains("2020-09-13"), "\(listed.stdout)")
            let json = try await runner.run(["--json", "ls", "st:\(name)/"])
            let stat = try await runner.run(["--json", "stat", "st:\(name)/old.txt"])
            let time = { (text: String) in text.components(separatedBy: "\"modified\":").dropFirst().first?.prefix(30) }
            #expect(time(json.stdout) != nil && time(json.stdout) == time(stat.stdout), "\(json.stdout) \(stat.stdout)")
        }
    }

    /// A killed upload or download of one remote is listed and resumed on that remote, not on another with the same
    /// endpoint and key (and a wrong secret), which it was before (403).
    @Test func aTransferKeepsTheRemoteItStartedOn() async throws {
        try await HeavyWork.shared.run {
            #expect(try await addRemote("s3bad", secret: "not-the-secret", check: false).status == 0)
            try await addRemote("s3t")
            let name = ObjectStoreServer.freshBucket("keeps")
            #expect(try await cli.run(["mkdir", "s3t:\(name)"]).status == 0)
            let file = try await randomFile("kept.bin", mebibytes: 40)
            let first = try cli.launch(["put", "--bwlimit", "4M", file, "s3t:\(name)/"])
            let journal = cli.journalPath
            let killed = await Eventually.signal(SIGKILL, to: [first], timeout: 60) {
                !(try TransferJournal(path: journal).objectUploads().isEmpty)
            }
            first.waitUntilExit()
            #expect(killed, "the multipart upload journaled")
            let listed = try await cli.run(["transfers", "list"])
            #expect(listed.stdout.contains("s3t:\(name)/kept.bin"), "\(listed.stdout)")
            let resumed = try await cli.run(["transfers", "resume"])
            #expect(resumed.status == 0, "\(resumed.stderr)")
            // A killed download the same: listed and resumed from the remote it started on.
            let back = work.file("kept-back.bin")
            let get = try cli.launch(["get", "--bwlimit", "4M", "s3t:\(name)/kept.bin", back])
            let stopped = await Eventually.signal(SIGKILL, to: [get], timeout: 60) {
                (try TransferJournal(path: journal).downloads().first?.segments.reduce(0) { $0 + $1.done } ?? 0)
                    > 1 << 20
            }
            get.waitUntilExit()
            #expect(stopped, "the download journaled")
            let listedDownload = try await cli.run(["transfers", "list"])
            #expect(listedDownload.stdout.contains("s3t:\(name)/kept.bin"), "\(listedDownload.stdout)")
            let resumedDownload = try await cli.run(["transfers", "resume"])
            #expect(resumedDownload.status == 0, "\(resumedDownload.stderr)")
            #expect(
                try await ProcessRunner.sha256Detached(of: back) == (try await ProcessRunner.sha256Detached(of: file)))
        }
    }

    /// The store answers ranges with 206 but names no `Accept-Ranges` on HEAD: before, `get -x 4` made one whole
    /// GET and a killed one started over ("no ranges on the server"). Ranges are now decided by trying one.
    @Test func aGetOfAnObjectRunsInParallelRangesAndResumes() async throws {
        try await HeavyWork.shared.run {
            try await addRemote()
            let name = try await bucket("ranges")
            let file = try await randomFile("ranged.bin", mebibytes: 24)
            #expect(try await cli.run(["put", file, "st:\(name)/ranged.bin"]).status == 0)
            let target = work.path + "/ranged-back.bin"
            let first = try cli.launch(["get", "-x", "4", "--bwlimit", "8M", "st:\(name)/ranged.bin", target])
            let journal = cli.journalPath
            let killed = await Eventually.signal(SIGKILL, to: [first], timeout: 60) {
                let download = try TransferJournal(path: journal).downloads().first
                // Four connections; the object's stored SHA-256 is checked as its bytes land, so each range is
                // cut in pieces fetched in order (16 in all).
                return (download?.segments.count ?? 0) == 4 * SegmentedDownloader.piecesPerRange
                    && (download?.segments.reduce(0) { $0 + $1.done } ?? 0) > 4 << 20
            }
            first.waitUntilExit()
            #expect(killed, "four ranges' pieces journaled")
            #expect(!(try await cli.run(["transfers", "list"]).stdout.contains("no ranges")))
            let rerun = try await cli.run(["--json", "get", "st:\(name)/ranged.bin", target])
            #expect(rerun.status == 0, "\(rerun.stderr)")
            let row =
                try JSONSerialization.jsonObject(with: Data(rerun.stdout.split(separator: "\n").last!.utf8))
                as? [String: Any]
            #expect((row?["resumedBytes"] as? Int ?? 0) > 4 << 20, "\(rerun.stdout)")
            #expect(
                try await ProcessRunner.sha256Detached(of: target) == (try await ProcessRunner.sha256Detached(of: file))
            )
            // The HEAD that found the object is the only one: its size and ETag hold every range.
            let again = try await cli.run(["-v", "get", "--force", "-x", "4", "st:\(name)/ranged.bin", target])
            let heads = again.stderr.split(separator: "\n").filter { $0.hasPrefix("> HEAD ") }
            #expect(
                again.status == 0 && heads.count == 1,
                "\(again.stderr.split(separator: "\n").filter { $0.hasPrefix("> ") }.prefix(12))")
            #expect(
                again.stderr.split(separator: "\n").filter { $0.hasPrefix("> GET ") && $0.contains("ranged.bin") }.count
                    >= 4)
        }
    }

    /// Through a proxy that flips one byte on the way down, `get` and `sync` of a single-part object (checked by its
    /// MD5 ETag) and of one stored in parts (by the SHA-256 stored with it) fetch it once more and save the store's
    /// bytes (all three exited 0 with the wrong bytes); `--json` says what each was checked by.
    @Test func damagedObjectBytesAreFetchedAgainNotSaved() async throws {
        try await HeavyWork.shared.run {
            try await addRemote()
            let name = try await bucket("damage")
            let small = try await randomFile("small.bin", mebibytes: 3)
            let large = try await randomFile("large.bin", mebibytes: 34)
            #expect(try await cli.run(["put", small, "st:\(name)/small.bin"]).status == 0)
            #expect(try await cli.run(["put", large, "st:\(name)/parts/large.bin"]).status == 0)
            // Another tool's single-part object carries no SHA-256: its MD5 ETag is the check.
            let copied = try await ProcessRunner.runDetached(
                "/usr/bin/rclone", ["copyto", small, "RS:\(name)/theirs.bin"], environment: store.rcloneEnvironment())
            #expect(copied.status == 0, "\(copied.stderr)")
            let port = try #require(URL(string: store.url)?.port)
            for (source, local, check) in [
                ("small.bin", small, "sha256"), ("parts/large.bin", large, "sha256"), ("theirs.bin", small, "md5"),
            ] {
                let proxy = try await startFaultProxy(
                    target: "127.0.0.1:\(port)", ["--corrupt-at", "1000000", "--direction", "down"])
                defer { proxy.stop() }
                #expect(try await addRemote("sp", endpoint: proxy.url, check: false).status == 0)
                let target = work.file("got-" + (source as NSString).lastPathComponent)
                let got = try await cli.run(["--json", "get", "sp:\(name)/\(source)", target])
                #expect(got.status == 0, "\(got.stderr)")
                #expect(
                    try await ProcessRunner.sha256Detached(of: target)
                        == (try await ProcessRunner.sha256Detached(of: local)))
                #expect(got.stdout.contains("\"checked\":\"\(check)\""), "\(got.stdout)")
                #expect(try await cli.run(["remote", "remove", "sp"]).status == 0)
            }
            // An object in parts with neither a SHA-256 nor an MD5 stored: its length is all that can be checked.
            let client = try storeClient()
            let upload = try await client.startMultipart(bucket: name, key: "bare.bin", metadata: [:])
            let md5 = try ObjectStoreClient.md5(file: small, offset: 0, length: 3 << 20)
            let etag = try await client.uploadPart(
                bucket: name, key: "bare.bin", uploadID: upload, number: 1, file: small, offset: 0, length: 3 << 20,
                md5: md5)
            try await client.completeMultipart(
                bucket: name, key: "bare.bin", uploadID: upload,
                parts: [UploadedPart(number: 1, etag: etag, size: 3 << 20)])
            // A pull: each object through its own damaging proxy run; each file's record says its check.
            let proxy = try await startFaultProxy(
                target: "127.0.0.1:\(port)", ["--corrupt-at", "2000000", "--direction", "down"])
            defer { proxy.stop() }
            #expect(try await addRemote("sp", endpoint: proxy.url, check: false).status == 0)
            let pulled = work.file("pulled")
            let sync = try await cli.run(["--json", "sync", "sp:\(name)", pulled])
            #expect(sync.status == 0, "\(sync.stderr)")
            var checks: [String: String] = [:]
            for line in sync.stdout.split(separator: "\n") {
                guard let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    record["type"] as? String == "done", let source = record["source"] as? String
                else { continue }
                checks[(source as NSString).lastPathComponent] = record["checked"] as? String
            }
            #expect(
                checks == ["small.bin": "sha256", "large.bin": "sha256", "theirs.bin": "md5", "bare.bin": "size"],
                "\(sync.stdout)")
            #expect(
                try await ProcessRunner.sha256Detached(of: pulled + "/small.bin")
                    == (try await ProcessRunner.sha256Detached(of: small)))
            #expect(
                try await ProcessRunner.sha256Detached(of: pulled + "/parts/large.bin")
                    == (try await ProcessRunner.sha256Detached(of: large)))
            #expect(
                try await ProcessRunner.sha256Detached(of: pulled + "/theirs.bin")
                    == (try await ProcessRunner.sha256Detached(of: small)))
        }
    }

    @Test func aKilledDownloadOfAReplacedObjectEndsWithTheNewObject() async throws {
        try await HeavyWork.shared.run {
            try await addRemote()
            let name = try await bucket("replaced")
            let size = 48 << 20
            let old = try await randomFile("old.bin", mebibytes: size >> 20)
            let new = try await randomFile("new.bin", mebibytes: size >> 20)
            #expect(try await cli.run(["put", old, "st:\(name)/f.bin"]).status == 0)
            let target = work.path + "/f.bin"
            let first = try cli.launch(["get", "--bwlimit", "8M", "st:\(name)/f.bin", target])
            let journal = cli.journalPath
            // Killed once the journal holds 12 MiB of the old object (of 48 at 8 MiB/s: 4 s before it is whole).
            let enough: Int64 = 12 << 20
            let killed = await Eventually.signal(SIGKILL, to: [first], timeout: 60) {
                (try TransferJournal(path: journal).downloads().first?.segments.reduce(0) { $0 + $1.done } ?? 0)
                    >= enough
            }
            #expect(killed)
            first.waitUntilExit()
            #expect(try await cli.run(["transfers", "list"]).stdout.contains("download"))
            #expect(!FileManager.default.fileExists(atPath: target))
            #expect(try await cli.run(["put", "--force", new, "st:\(name)/f.bin"]).status == 0)
            let rerun = try await cli.run(["get", "st:\(name)/f.bin", target])
            #expect(rerun.status == 0, "\(rerun.stderr)")
            #expect(
                try await ProcessRunner.sha256Detached(of: target) == (try await ProcessRunner.sha256Detached(of: new)))
        }
    }

    @Test func badKeysMissingBucketsAndA503AreToldPlainly() async throws {
        try await addRemote("bad", secret: "wrong", check: false)
        let denied = try await cli.run(["ls", "bad:"])
        #expect(denied.status == 3 && denied.stderr.contains("access denied"), "\(denied.stderr)")
        #expect(!denied.stderr.contains("wrong"))
        // Named as typed, never by the request's method (`HEAD somebucket/x.txt`).
        let deniedGet = try await cli.run(["get", "bad:somebucket/x.txt", work.file("denied.txt")])
        #expect(
            deniedGet.status == 3 && deniedGet.stderr.hasPrefix("officer-files: bad:somebucket/x.txt: access denied")
                && !deniedGet.stderr.contains("HEAD"), "\(deniedGet.stderr)")
        try await addRemote()
        let nothing = try await cli.run(["ls", "st:no-such-bucket-\(getpid())"])
        #expect(nothing.status == 4 && nothing.stderr.contains("no such bucket"))
        let file = try work.write("a.txt", "a")
        let putMissing = try await cli.run(["put", file, "st:no-such-bucket-\(getpid())/"])
        #expect(putMissing.status == 4, "\(putMissing.stderr)")
        let name = try await bucket("busy")
        // The first two requests through the proxy answer 503 with Retry-After: 1; the command waits and goes on.
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(store.port)", ["--fail-request", "1", "--fail-request", "2", "--retry-after", "1"])
        try await addRemote("slow", endpoint: proxy.url, check: false)
        let started = Date()
        let put = try await cli.run(["-v", "put", file, "slow:\(name)/"])
        #expect(put.status == 0, "\(put.stderr)")
        #expect(put.stderr.contains("503"))
        #expect(Date().timeIntervalSince(started) >= 2)
        #expect(try await cli.run(["cat", "st:\(name)/a.txt"]).stdout == "a")
        proxy.stop()
    }

    /// A thousand files both ways (the size of a tree is the Officer sync's test: `SyncCommandTests` sends ten
    /// thousand once), with names whose key order differs from the sync's.
    @Test func syncsAThousandFilesBothWays() async throws {
        try await HeavyWork.shared.run {
            try await addRemote()
            let name = try await bucket("many")
            let local = work.path + "/tree"
            // Written on a thread of its own: a thousand files would hold one of the shared pool's two threads.
            let work = work
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                DispatchQueue.global().async {
                    continuation.resume(
                        with: Result {
                            for index in 0..<1_000 {
                                let folder = "d\(index % 20)" + (index % 3 == 0 ? "/sub" : "")
                                let data = Data(
                                    (0..<(1 + index % 64 * 17)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) })
                                _ = try work.write("tree/\(folder)/f\(index).txt", data)
                            }
                        })
                }
            }
            // Names whose S3 key order differs from the sync's (a.txt before a/ as keys, after it as paths).
            _ = try work.write("tree/a.txt", "dot")
            _ = try work.write("tree/a/b.txt", "slash")
            _ = try work.write("tree/with space/é.txt", "unicode")
            let push = try await cli.run(["--json", "sync", local, "st:\(name)/photos"])
            #expect(push.status == 0, "\(push.stderr)")
            #expect(push.stdout.contains("\"transferred\":1003"), "\(push.stdout.suffix(300))")
            let noop = try await cli.run(["--json", "sync", "-n", local, "st:\(name)/photos"])
            #expect(
                noop.stdout.contains("\"transferred\":0") && noop.stdout.contains("\"unchanged\":1003"),
                "\(noop.stdout.suffix(300))")
            let pulled = work.path + "/pulled"
            let pull = try await cli.run(["--json", "sync", "st:\(name)/photos", pulled])
            #expect(pull.status == 0, "\(pull.stderr)")
            let diff = try await ProcessRunner.runDetached("/usr/bin/diff", ["-r", local, pulled])
            #expect(diff.status == 0, "\(diff.stdout.prefix(300))")
            #expect(abs(mtime(pulled + "/d7/f7.txt") - mtime(local + "/d7/f7.txt")) < 0.002)
            let noopPull = try await cli.run(["--json", "sync", "-n", "st:\(name)/photos", pulled])
            #expect(noopPull.stdout.contains("\"transferred\":0"), "\(noopPull.stdout.suffix(300))")
            // A change, a deletion with --delete, and --checksum over the stored SHA-256.
            _ = try work.write("tree/d1/f1.txt", "changed")
            try FileManager.default.removeItem(atPath: local + "/d2")
            let again = try await cli.run(["--json", "sync", "--delete", local, "st:\(name)/photos"])
            #expect(again.status == 0 && again.stdout.contains("\"transferred\":1"), "\(again.stdout.suffix(300))")
            #expect(try await cli.run(["cat", "st:\(name)/photos/d1/f1.txt"]).stdout == "changed")
            #expect(try await cli.run(["ls", "st:\(name)/photos/d2"]).status == 4)
            let checksum = try await cli.run(["--json", "sync", "-n", "--checksum", local, "st:\(name)/photos"])
            #expect(checksum.stdout.contains("\"transferred\":0"), "\(checksum.stdout.suffix(300))")
            // Under a thousand keys now: the whole tree comes in one listing, not one per folder (the walk by
            // level above, for 1,003 keys, listed each of the 40 folders).
            let listed = try await cli.run(["-v", "sync", "-n", local, "st:\(name)/photos"])
            let listings = listed.stderr.split(separator: "\n").filter {
                $0.hasPrefix("> GET") && $0.contains("list-type=2")
            }
            #expect(listed.status == 0 && listings.count == 1, "\(listings)")
        }
    }

    @Test func rcloneAndWeReadEachOthersObjects() async throws {
        try await addRemote()
        let name = try await bucket("rclone")
        let tree = work.path + "/tree"
        for index in 0..<30 {
            _ = try work.write("tree/dir\(index % 3)/file\(index).txt", bytes(100 + index * 1000, seed: index))
        }
        _ = try await randomFile("tree/big.bin", mebibytes: 40)  // in parts on both sides
        let rclone = store.rcloneEnvironment()
        let copied = try await ProcessRunner.runDetached(
            "/usr/bin/rclone", ["sync", tree, "RS:\(name)/by-rclone"], environment: rclone)
        #expect(copied.status == 0, "\(copied.stderr)")
        let plan = try await cli.run(["--json", "sync", "-n", tree, "st:\(name)/by-rclone"])
        #expect(
            plan.status == 0 && plan.stdout.contains("\"transferred\":0") && plan.stdout.contains("\"unchanged\":31"),
            "\(plan.stdout.suffix(400))")
        let pulled = work.path + "/pulled"
        let pull = try await cli.run(["-v", "sync", "st:\(name)/by-rclone", pulled])
        #expect(pull.status == 0, "\(pull.stderr.suffix(800))")
        #expect(try await ProcessRunner.runDetached("/usr/bin/diff", ["-r", tree, pulled]).status == 0)
        // Each object's time comes with its GET: no HEAD a file (the one large file, fetched in ranges, asks once).
        let heads = pull.stderr.split(separator: "\n").filter { $0.hasPrefix("> HEAD ") && $0.contains("/by-rclone/") }
        #expect(heads.count == 1 && heads[0].hasSuffix("/big.bin"), "\(heads)")

        let ours = try await cli.run(["sync", tree, "st:\(name)/by-us"])
        #expect(ours.status == 0, "\(ours.stderr)")
        let check = try await ProcessRunner.runDetached(
            "/usr/bin/rclone", ["check", tree, "RS:\(name)/by-us"], environment: rclone)
        #expect(check.status == 0 && check.stderr.contains("0 differences found"), "\(check.stderr)")
        let listed = try await ProcessRunner.runDetached(
            "/usr/bin/rclone", ["lsl", "RS:\(name)/by-us/dir1"], environment: rclone)
        // `rclone lsl` prints the time we stored, to the nanosecond: compare with the local file's.
        for line in listed.stdout.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 4 else { continue }
            var info = stat()
            stat(tree + "/dir1/" + fields[3], &info)
            let local = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
            let formatter = DateFormatter()
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
            let nanos = String(format: "%09ld", info.st_mtim.tv_nsec)
            #expect("\(fields[1]) \(fields[2])" == formatter.string(from: local) + "." + nanos, "\(line)")
        }
        let rcloneSync = try await ProcessRunner.runDetached(
            "/usr/bin/rclone", ["sync", "-v", "--dry-run", tree, "RS:\(name)/by-us"], environment: rclone)
        #expect(!rcloneSync.stderr.contains("Skipped copy"), "\(rcloneSync.stderr)")
    }
}

/// `sync` between an Officer folder and an S3 prefix, both ways, file by file through staging.
@Suite struct RemoteToRemoteSyncTests {
    @Test func officerToS3AndBack() async throws {
        let store = try await ObjectStoreServer.shared()
        let server = try await ReferenceServer.start(inMemory: true)
        let cli = CLIRunner()
        #expect(try await cli.login(server).status == 0)
        let added = try await cli.run(
            [
                "remote", "add", "st", "--s3", "--endpoint", store.url, "--access-key", store.accessKey,
                "--secret-stdin",
            ], stdin: store.secretKey + "\n")
        #expect(added.status == 0, "\(added.stderr)")
        let bucket = ObjectStoreServer.freshBucket("relay")
        #expect(try await cli.run(["mkdir", "st:\(bucket)"]).status == 0)
        for index in 0..<20 {
            _ = try server.root.write(
                "Photos/\(index % 2 == 0 ? "even/" : "")p\(index).jpg",
                Data(repeating: UInt8(index), count: 1000 + index))
        }
        _ = try await randomFile(at: server.root.file("Photos/big.bin"), mebibytes: 40)
        let there = try await cli.run(["--json", "sync", "officer:/Photos", "st:\(bucket)/photos"])
        #expect(
            there.status == 0 && there.stdout.contains("\"transferred\":21"),
            "\(there.stderr) \(there.stdout.suffix(300))")
        let again = try await cli.run(["--json", "sync", "-n", "officer:/Photos", "st:\(bucket)/photos"])
        #expect(
            again.stdout.contains("\"transferred\":0") && again.stdout.contains("\"unchanged\":21"),
            "\(again.stdout.suffix(300))")
        let back = try await cli.run(["--json", "sync", "st:\(bucket)/photos", "officer:/Copy"])
        #expect(back.status == 0 && back.stdout.contains("\"transferred\":21"), "\(back.stderr)")
        let diff = try await ProcessRunner.runDetached(
            "/usr/bin/diff", ["-r", server.root.path + "/Photos", server.root.path + "/Copy"])
        #expect(diff.status == 0, "\(diff.stdout.prefix(300))")
        var info = stat(), copy = stat()
        stat(server.root.path + "/Photos/p3.jpg", &info)
        stat(server.root.path + "/Copy/p3.jpg", &copy)
        #expect(abs(Double(info.st_mtim.tv_sec) - Double(copy.st_mtim.tv_sec)) <= 1)
        // A change on one side goes across; --delete removes what the source lost.
        _ = try server.root.write("Photos/p1.jpg", "changed")
        try FileManager.default.removeItem(atPath: server.root.path + "/Photos/even")
        let changed = try await cli.run(["--json", "sync", "--delete", "officer:/Photos", "st:\(bucket)/photos"])
        #expect(
            changed.status == 0 && changed.stdout.contains("\"transferred\":1")
                && changed.stdout.contains("\"deleted\":1"), "\(changed.stdout.suffix(300))")
        #expect(try await cli.run(["cat", "st:\(bucket)/photos/p1.jpg"]).stdout == "changed")
        #expect(try await cli.run(["ls", "st:\(bucket)/photos/even"]).status == 4)
        let staging = cli.home.path + "/state/officer-files/staging"
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []).isEmpty)
    }
}

/// `mebibytes` MiB from /dev/urandom at `path` (its folder created), written by dd off Swift's shared pool.
func randomFile(at path: String, mebibytes: Int) async throws -> String {
    try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let result = try await ProcessRunner.runDetached(
        "/bin/dd", ["if=/dev/urandom", "of=\(path)", "bs=1M", "count=\(mebibytes)", "status=none"])
    #expect(result.status == 0, "\(result.stderr)")
    return path
}

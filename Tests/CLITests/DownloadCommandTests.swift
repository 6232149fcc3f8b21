import Foundation
import HTTP
import Journal
import Officer
import TestSupport
import Testing
import Transfer

/// `get` and `cat` as a person runs them, SIGKILL included.
@Suite struct DownloadCommandTests {
    let server: ReferenceServer
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "get-work")

    init() async throws {
        server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
    }

    func bytes(_ count: Int, seed: UInt8) -> Data {
        TestBytes.pattern(count, seed: UInt64(seed))
    }

    /// Modification time in seconds with the nanoseconds.
    func mtime(_ path: String) -> Double {
        var info = stat()
        stat(path, &info)
        return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    }

    /// A name of 255 bytes (the most a file can have) comes back under itself by `get` and by a sync's pull, on a
    /// server with the proposals and on one with the seed's endpoints only: the temp files it grows in fit too.
    @Test(arguments: [false, true])
    func theLongestNamesComeBackUnderThemselves(seedOnly: Bool) async throws {
        let server = seedOnly ? try await ReferenceServer.start(arguments: ["--api", "seed"]) : self.server
        let cli = seedOnly ? CLIRunner() : self.cli
        if seedOnly { #expect(try await cli.login(server).status == 0) }
        let names = [
            String(repeating: "L", count: 251) + ".txt", String(repeating: "é", count: 123) + ".bin",
            String(repeating: "n", count: 224) + ".md",
        ]
        for (index, name) in names.enumerated() {
            try server.root.write("long/" + name, bytes(70_000 + index, seed: UInt8(index)))
        }
        let gets = work.path + "/long-get-\(seedOnly)"
        try FileManager.default.createDirectory(atPath: gets, withIntermediateDirectories: true)
        for name in names {
            let got = try await cli.run(["get", "officer:/long/" + name, gets + "/"])
            #expect(got.status == 0, "\(got.stderr)")
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: gets + "/" + name))
                    == Data(contentsOf: URL(fileURLWithPath: server.root.file("long/" + name))))
        }
        let pulled = work.path + "/long-sync-\(seedOnly)"
        let sync = try await cli.run(["sync", "officer:/long", pulled])
        #expect(sync.status == 0, "\(sync.stdout)\(sync.stderr)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: pulled)) == Set(names))
        for name in names {
            #expect(
                try ProcessRunner.sha256(of: pulled + "/" + name)
                    == ProcessRunner.sha256(of: server.root.file("long/" + name)))
        }
    }

    @Test func getKeepsTheServersMillisecondTimeFromTheNetworkAndTheCache() async throws {
        let source = try server.root.write("timed/f.txt", "timed\n")
        let listed = 1_796_033_062.101
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: listed)], ofItemAtPath: source)
        let local = work.path + "/timed"
        try FileManager.default.createDirectory(atPath: local, withIntermediateDirectories: true)
        let got = try await cli.run(["get", "officer:/timed/f.txt", local + "/f.txt"])
        #expect(got.status == 0, "\(got.stderr)")
        #expect(abs(mtime(local + "/f.txt") - listed) < 0.0005, "\(mtime(local + "/f.txt"))")
        let plan = try await cli.run(["sync", "-n", "officer:/timed", local])
        #expect(plan.status == 0 && plan.stderr.contains("Would transfer 0 files"), "\(plan.stdout)\(plan.stderr)")
        // The second get is a copy of the cached body: the same time.
        let cached = try await cli.run(["--json", "get", "officer:/timed/f.txt", work.path + "/again.txt"])
        #expect(cached.status == 0 && cached.stdout.contains("\"fromCache\":true"), "\(cached.stdout)")
        #expect(abs(mtime(work.path + "/again.txt") - listed) < 0.0005)
        let offline = try await cli.run(["--offline", "get", "officer:/timed/f.txt", work.path + "/offline.txt"])
        #expect(offline.status == 0 && abs(mtime(work.path + "/offline.txt") - listed) < 0.0005, "\(offline.stderr)")
    }

    /// Where the server offers checksums, the bytes are checked against its SHA-256, and the version is asked again
    /// as the ranges' last bytes come (a round trip before the last byte, a round trip less): bytes of a version
    /// edited meanwhile are whole, but not the file the server holds now. Without a checksum (a seed-only server)
    /// it is asked after the body. The one HEAD before the body is the one asked beside the
    /// first stat (a round trip less).
    @Test(arguments: [false, true])
    func bytesAreCheckedAgainstTheServersChecksumAndItsCurrentVersion(seedOnly: Bool) async throws {
        let server = seedOnly ? try await ReferenceServer.start(arguments: ["--api", "seed"]) : self.server
        let cli = CLIRunner()
        #expect(try await cli.login(server).status == 0)
        let source = try server.root.write("checked/big.bin", bytes(6_000_000, seed: 3))
        let small = try server.root.write("checked/small.txt", "small\n")
        for (name, origin) in [("big.bin", source), ("small.txt", small)] {
            let got = try await cli.run(["-v", "get", "officer:/checked/\(name)", work.path + "/\(seedOnly)-\(name)"])
            #expect(got.status == 0, "\(got.stderr)")
            #expect(
                try ProcessRunner.sha256(of: work.file("\(seedOnly)-\(name)")) == (try ProcessRunner.sha256(of: origin))
            )
            let lines = got.stderr.split(separator: "\n")
            if !seedOnly {
                #expect(lines.contains { $0.hasPrefix("> GET ") && $0.contains("/sha256?path=/checked/") })
            }
            let body = try #require(
                lines.lastIndex { $0.hasPrefix("< 20") && $0.contains(" GET ") && $0.contains("/raw?") },
                "\(got.stderr)")
            let heads = lines.indices.filter { lines[$0].hasPrefix("> HEAD ") && lines[$0].contains("/raw?") }
            let asked = try #require(lines.firstIndex { $0.hasPrefix("> GET ") && $0.contains("/raw?") })
            try #require(heads.count == 2, "\(got.stderr)")
            #expect(heads[0] < asked, "\(got.stderr)")
            if seedOnly {
                #expect(heads[1] > body, "after the body: \(got.stderr)")
            } else {
                #expect(heads[1] > asked, "as the bytes come: \(got.stderr)")
            }
        }
    }

    @Test func getsAnOfficerFileIntoTheCurrentFolder() async throws {
        let source = try server.root.write("docs/report.pdf", bytes(1_200_000, seed: 1))
        let result = try await cli.run(["get", "officer:/docs/report.pdf"], in: work.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Saved \(work.path)/report.pdf (1.14 MiB)"))
        #expect(try ProcessRunner.sha256(of: work.file("report.pdf")) == (try ProcessRunner.sha256(of: source)))

        let again = try await cli.run(["get", "officer:/docs/report.pdf"], in: work.path)
        #expect(again.status == 5 && again.stderr.contains("already exists (use --force"))
        let folder = try await cli.run(["get", "officer:/docs/report.pdf", work.path + "/sub/"], in: work.path)
        #expect(folder.status == 8 || folder.status == 0)

        let sum = try ProcessRunner.sha256(of: source)
        let json = try await cli.run(
            ["get", "--json", "--checksum", "sha256:\(sum)", "officer:/docs/report.pdf", "copy.pdf"], in: work.path)
        #expect(json.status == 0 && json.stdout.contains("\"sha256\":\"\(sum)\""))
        let wrong = try await cli.run(
            [
                "get", "--checksum", "sha256:" + String(repeating: "a", count: 64), "officer:/docs/report.pdf",
                "bad.pdf",
            ], in: work.path)
        #expect(wrong.status == 1 && wrong.stderr.contains("nothing was saved"))
        #expect(!FileManager.default.fileExists(atPath: work.file("bad.pdf")))
        let missing = try await cli.run(["get", "officer:/docs/none.pdf"], in: work.path)
        #expect(missing.status == 4 && missing.stderr.contains("no such file"))
        let folderSource = try await cli.run(["get", "officer:/docs"], in: work.path)
        #expect(folderSource.status == 9 && folderSource.stderr.contains("is a folder"))
        let badFlag = try await cli.run(["get", "-x", "99", "officer:/docs/report.pdf"], in: work.path)
        #expect(
            badFlag.status == 2 && badFlag.stderr.contains("invalid value '99' for -x: a number from 1 to 16"),
            "\(badFlag.stderr)")
        let local = try await cli.run(["get", "docs/report.pdf"], in: work.path)
        #expect(local.status == 2 && local.stderr.contains("officer:/path"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: work.path).filter {
            $0.contains("officer-download")
        }
        #expect(leftovers.isEmpty)
    }

    @Test func resumesAfterSIGKILL() async throws {
        let source = try server.root.write("big.bin", bytes(4_000_000, seed: 2))
        let proxy = try await startFaultProxy(target: "127.0.0.1:\(server.service.port)", ["--throttle", "1000000"])
        let viaProxy = ["OFFICER_SERVER": proxy.url, "OFFICER_TOKEN": try cli.savedToken()]
        let process = try cli.launch(["get", "officer:/big.bin"], environment: viaProxy, in: work.path)
        #expect(
            await Eventually.signal(SIGKILL, to: [process], timeout: 90) {
                (try (cli.watchedJournal()?.downloads() ?? []).first?.segments.reduce(0) { $0 + $1.done } ?? 0)
                    > 600_000
            })
        process.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: work.file("big.bin")))
        let partialSize =
            (try FileManager.default.attributesOfItem(atPath: work.file(".big.bin.officer-download"))[.size] as? Int)
            ?? 0
        #expect(partialSize > 500_000 && partialSize < 4_000_000)  // one range: the temp file grows as bytes arrive

        let rerun = try await cli.run(["get", "officer:/big.bin"], environment: viaProxy, in: work.path)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stderr.contains("resumed after"))
        #expect(try ProcessRunner.sha256(of: work.file("big.bin")) == (try ProcessRunner.sha256(of: source)))
        #expect(!FileManager.default.fileExists(atPath: work.file(".big.bin.officer-download")))
    }

    @Test func aResumeOnLastModifiedAloneNeverSplicesTwoVersions() async throws {
        // No ETag: only Last-Modified, whole seconds, vouches for the version.
        let nginx = try await NginxServer.start(directives: "etag off;")
        let path = try nginx.root.write("same.bin", bytes(3_000_000, seed: 4))
        let stamp = Date(timeIntervalSince1970: 1_790_000_000)
        try FileManager.default.setAttributes([.modificationDate: stamp], ofItemAtPath: path)
        let proxy = try await startFaultProxy(target: "127.0.0.1:\(nginx.port)", ["--throttle", "1000000"])
        let process = try cli.launch(["get", proxy.url + "/same.bin"], in: work.path)
        #expect(await Eventually.signal(SIGKILL, to: [process]) { (try self.downloaded()) > 400_000 })
        process.waitUntilExit()
        // Replaced by another file of the same length with the same Last-Modified.
        let replacement = bytes(3_000_000, seed: 9)
        try replacement.write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: stamp], ofItemAtPath: path)
        proxy.stop()
        let again = try await startFaultProxy(target: "127.0.0.1:\(nginx.port)", ["--listen", String(proxy.port)])
        defer { again.stop() }
        let rerun = try await cli.run(["-v", "get", proxy.url + "/same.bin"], in: work.path)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stderr.contains("starting over"), "\(rerun.stderr)")
        #expect(
            try ProcessRunner.sha256(of: work.file("same.bin")) == (try ProcessRunner.sha256(of: path)),
            "the new version, whole")
    }

    /// Ctrl-C says what a rerun does: continue a download kept in ranges, start over one a server without ranges
    /// sent (it promised "run the same command again to continue" for both).
    @Test func ctrlCSaysWhetherTheSameCommandContinues() async throws {
        let paced = try await pacedSources(plain: "g.bin", officer: "Videos/clip.mkv", seed: 7, rate: 300_000)
        let viaProxy = paced.viaProxy
        for (arguments, environment, words) in [
            (
                ["get", paced.plainURL, work.file("g.bin")], [String: String](),
                "the same command starts it over"
            ),
            (
                ["get", "officer:/Videos/clip.mkv", work.file("clip.mkv")], viaProxy,
                "run the same command again to continue"
            ),
        ] {
            let get = try cli.launchCapturingErrors(arguments, environment: environment)
            let temp = work.file("." + (arguments[2] as NSString).lastPathComponent + ".officer-download")
            #expect(
                await Eventually.signal(SIGINT, to: [get.process]) {
                    ((try? FileManager.default.attributesOfItem(atPath: temp)[.size] as? Int) ?? 0) > 200_000
                })
            let told = get.stderr()
            #expect(get.process.terminationStatus == 130 && told.contains(words), "\(arguments): \(told)")
        }
    }

    /// A 3 MB file on a server without ranges (the redirect probe's `/plain/NAME`) and one on the Officer server,
    /// each behind a proxy paced to `rate` bytes a second: the plain URL and the environment that sends the Officer
    /// requests through its proxy; `services` keep the servers alive as long as the caller holds them.
    struct PacedSources {
        var plainURL: String
        var viaProxy: [String: String]
        var services: [BackgroundService]
        var folder: TemporaryDirectory
    }

    func pacedSources(plain: String, officer: String, seed: UInt8, rate: Int) async throws -> PacedSources {
        let folder = TemporaryDirectory(prefix: "plain")
        try folder.write(plain, bytes(3_000_000, seed: seed))
        let probe = try await startRedirectProbe(serving: folder.path)
        let plainProxy = try await startFaultProxy(target: "127.0.0.1:\(probe.port)", ["--throttle", String(rate)])
        try server.root.write(officer, bytes(3_000_000, seed: seed + 1))
        let officerProxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)", ["--throttle", String(rate)])
        return PacedSources(
            plainURL: plainProxy.url + "/plain/" + plain,
            viaProxy: ["OFFICER_SERVER": officerProxy.url, "OFFICER_TOKEN": try cli.savedToken()],
            services: [probe, plainProxy, officerProxy], folder: folder)
    }

    @Test func killedDownloadsAreListedAsTheUserNamedThemAndCleaned() async throws {
        let paced = try await pacedSources(plain: "f.bin", officer: "Videos/talk.mkv", seed: 5, rate: 500_000)
        let viaProxy = paced.viaProxy
        for (arguments, environment) in [
            (["get", paced.plainURL], [String: String]()),
            (["get", "officer:/Videos/talk.mkv"], viaProxy),
        ] {
            let process = try cli.launch(arguments, environment: environment, in: work.path)
            let temp = work.file("." + (arguments[1] as NSString).lastPathComponent + ".officer-download")
            #expect(
                await Eventually.signal(SIGKILL, to: [process]) {
                    ((try? FileManager.default.attributesOfItem(atPath: temp)[.size] as? Int) ?? 0) > 200_000
                })
            process.waitUntilExit()
        }
        let listed = try await cli.run(["transfers", "list"], environment: viaProxy)
        #expect(
            listed.stdout.contains("download  officer:/Videos/talk.mkv -> \(work.path)/talk.mkv"), "\(listed.stdout)")
        #expect(
            listed.stdout.contains("/plain/f.bin -> \(work.path)/f.bin")
                && listed.stdout.contains("a rerun starts over"), "\(listed.stdout)")
        let cleaned = try await cli.run(["transfers", "clean"], environment: viaProxy)
        #expect(cleaned.status == 0, "\(cleaned.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.hasSuffix(".officer-download") }
                .isEmpty)
    }

    func downloaded() throws -> Int64 {
        try (cli.watchedJournal()?.downloads() ?? []).reduce(0) { $0 + $1.segments.reduce(0) { $0 + $1.done } }
    }

    @Test func catPrintsTheBytes() async throws {
        try server.root.write("notes.md", "# Notes\nline two\n")
        let result = try await cli.run(["cat", "officer:/notes.md"])
        #expect(result.status == 0 && result.stdout == "# Notes\nline two\n")
        let missing = try await cli.run(["cat", "officer:/nope.md"])
        #expect(missing.status == 4 && missing.stdout.isEmpty)
        // The server down: one line naming the request once, the network's exit code.
        let down = try await cli.run(["cat", "http://127.0.0.1:\(try NginxServer.freePort())/notes.md"])
        #expect(
            down.status == 6 && down.stderr.hasPrefix("officer-files: cannot reach http://127.0.0.1:")
                && down.stderr.hasSuffix(" (connection refused)\n"), "\(down.stderr)")
        #expect(!down.stderr.contains("gave up") && down.stderr.split(separator: "\n").count == 1)
    }

    @Test func getsAPlainURLWithoutSendingTheToken() async throws {
        let nginx = try await NginxServer.start()
        let source = try nginx.root.write("pub/file.iso", bytes(700_000, seed: 3))
        let result = try await cli.run(["get", "-v", nginx.url + "/pub/file.iso"], in: work.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("Authorization"))
        #expect(try ProcessRunner.sha256(of: work.file("file.iso")) == (try ProcessRunner.sha256(of: source)))
    }
}

@Suite struct BandwidthLimitTests {
    @Test func bwlimitSlowsTheTransfer() async throws {
        let nginx = try await NginxServer.start()
        try nginx.root.write("slow.bin", Data(count: 600_000))
        let cli = CLIRunner()
        let work = TemporaryDirectory()
        let started = Date()
        let result = try await cli.run(["get", "--bwlimit", "300K", nginx.url + "/slow.bin"], in: work.path)
        #expect(result.status == 0, "\(result.stderr)")
        // 600 kB at 300 KiB/s cannot take less than about two seconds; unlimited it takes milliseconds.
        #expect(Date().timeIntervalSince(started) > 1.5)
        let bad = try await cli.run(["get", "--bwlimit", "fast", nginx.url + "/slow.bin"], in: work.path)
        #expect(bad.status == 2 && bad.stderr.contains("--bwlimit"))
    }

    /// `sync --bwlimit` holds every file in flight to the rate together, both ways (rclone's meaning; the option
    /// was missing on sync, copy and watch).
    @Test func aSyncKeepsItsLimitInAllBothWays() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        let cli = CLIRunner()
        #expect(try await cli.login(server).status == 0)
        let work = TemporaryDirectory()
        for index in 0..<8 { try work.write("tree/f\(index).bin", Data(repeating: UInt8(index), count: 150_000)) }
        for (source, destination) in [(work.file("tree"), "officer:/limited"), ("officer:/limited", work.file("back"))]
        {
            let started = Date()
            let synced = try await cli.run(["sync", "--bwlimit", "400K", source, destination])
            #expect(synced.status == 0, "\(synced.stderr)")
            // 1.2 MB at 400 KiB/s in all takes about three seconds; eight files each held to 400 KiB/s alone would
            // take under half a second.
            #expect(Date().timeIntervalSince(started) > 2.2, "\(source) -> \(destination)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.file("back")).count == 8)
        let bad = try await cli.run(["copy", "--bwlimit", "fast", work.file("tree"), "officer:/x"])
        #expect(bad.status == 2 && bad.stderr.contains("--bwlimit"), "\(bad.stderr)")
    }
}

@Suite struct TLSCommandTests {
    @Test func aSelfSignedServerIsRefusedUnlessTrusted() async throws {
        let nginx = try await NginxServer.start(tls: true)
        try nginx.root.write("doc.txt", "secret words\n")
        let cli = CLIRunner()
        let refused = try await cli.run(["cat", nginx.url + "/doc.txt"])
        #expect(
            refused.status == 6
                && refused.stderr.contains(
                    "\(nginx.url): its certificate is not trusted (self-signed certificate); pass --cacert FILE")
                && refused.stdout.isEmpty, "\(refused.stderr)")
        let trusted = try await cli.run(["cat", "--cacert", nginx.certificate!, nginx.url + "/doc.txt"])
        #expect(trusted.status == 0 && trusted.stdout == "secret words\n", "\(trusted.stderr)")
        let insecure = try await cli.run(["cat", "--insecure", nginx.url + "/doc.txt"])
        #expect(insecure.status == 0 && insecure.stdout == "secret words\n", "\(insecure.stderr)")
    }
}

/// Where the server offers HTTP/2, bulk bytes take HTTP/1.1 connections (an HTTP/2 stream's window caps a transfer
/// at a window a round trip) and small requests negotiate HTTP/2; `OFFICER_HTTP2_BULK=1` lets bulk go as streams.
@Suite struct HTTPVersionTests {
    @Test func bulkBytesTakeHTTP1AndSmallRequestsHTTP2() async throws {
        let logs = TemporaryDirectory(prefix: "nginx-log")
        let nginx = try await NginxServer.start(
            tls: true, http2: true, directives: "access_log \(logs.path)/access.log combined;")
        try nginx.root.write("big.bin", Data(count: 1_500_000))
        try nginx.root.write("small.txt", "small\n")
        let cli = CLIRunner()
        let work = TemporaryDirectory()
        let certificate = nginx.certificate!
        let got = try await cli.run(["get", "--cacert", certificate, nginx.url + "/big.bin", work.file("a.bin")])
        #expect(got.status == 0, "\(got.stderr)")
        let small = try await cli.run(["cat", "--cacert", certificate, nginx.url + "/small.txt"])
        #expect(small.status == 0 && small.stdout == "small\n", "\(small.stderr)")
        let streamed = try await cli.run(
            ["get", "--cacert", certificate, nginx.url + "/big.bin", work.file("b.bin")],
            environment: ["OFFICER_HTTP2_BULK": "1"])
        #expect(streamed.status == 0, "\(streamed.stderr)")
        #expect(try ProcessRunner.sha256(of: work.file("a.bin")) == (try ProcessRunner.sha256(of: work.file("b.bin"))))
        let log = try String(contentsOfFile: logs.path + "/access.log", encoding: .utf8)
        let gets = log.split(separator: "\n").filter { $0.contains("\"GET /big.bin ") }
        // The first get's body over HTTP/1.1, the second's as an HTTP/2 stream; the small file's over HTTP/2.
        #expect(gets.count == 2, "\(log)")
        #expect(gets.first?.contains("GET /big.bin HTTP/1.1") == true, "\(log)")
        #expect(gets.last?.contains("GET /big.bin HTTP/2.0") == true, "\(log)")
        #expect(log.contains("GET /small.txt HTTP/2.0"), "\(log)")
    }
}

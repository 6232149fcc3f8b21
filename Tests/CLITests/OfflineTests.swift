import Foundation
import HTTP
import Officer
import TestSupport
import Testing
import Transfer

/// `--offline` means no connection, whichever command: enforced where every request passes (the HTTP client),
/// checked here against a listener that records anything that reaches it.
@Suite struct OfflineTests {
    @Test func noCommandReachesTheServerOffline() async throws {
        let hostile = try await startHostileServer(mode: "html-error")
        let other = try await HTTPClient.curl.send(HTTPRequest(url: hostile.url + "/_hostile/other"))
        let listener = try #require((try JSONSerialization.jsonObject(with: other.body) as? [String: String])?["url"])
        let work = TemporaryDirectory(prefix: "offline")
        try work.write("a.txt", "alpha\n")
        try work.write("folder/b.txt", "beta\n")
        let cli = CLIRunner(environment: ["OFFICER_SERVER": listener, "OFFICER_TOKEN": "offline.token-1"])
        let commands: [[String]] = [
            ["ls", "officer:/"], ["ls", "-R", "officer:/"], ["stat", "officer:/a.txt"], ["whoami"], ["search", "x"],
            ["mkdir", "officer:/OfflineDir"], ["rm", "officer:/a.txt"], ["mv", "officer:/a.txt", "officer:/b.txt"],
            ["cp", "officer:/a.txt", "officer:/c.txt"], ["put", work.file("a.txt"), "officer:/"],
            ["get", "officer:/a.txt", work.file("got")],
            ["cat", "officer:/a.txt"], ["info", "officer:/a.txt"], ["sync", work.file("folder"), "officer:/f"],
            ["copy", "officer:/f", work.file("pulled")], ["ocr", "officer:/scan.png"], ["tts", "--text", "hello"],
            ["archive", "ls", "officer:/a.zip"],
        ]
        for arguments in commands {
            let result = try await cli.run(["--offline"] + arguments)
            #expect(result.status != 0, "\(arguments): \(result.stdout)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
        // Nothing to do is no failure, and still no request.
        for arguments in [["transfers", "resume"], ["logout"]] {
            #expect(try await cli.run(["--offline"] + arguments).status == 0)
        }
        let login = try await cli.run(
            ["--offline", "login", "--server", listener, "--email", "a@b.c", "--password-stdin"], stdin: "pw\n")
        #expect(login.status != 0)
        let seen = try await HTTPClient.curl.send(HTTPRequest(url: hostile.url + "/_hostile/recorded"))
        #expect(String(decoding: seen.body, as: UTF8.self) == "[]", "requests reached the server offline")
    }
}

/// What a command filled the cache with serves `--offline` as the network would have: the server's time on a file
/// whichever command cached it, and a file this tool just uploaded can be queued for removal.
@Suite struct OfflineFromWhatWasSeenTests {
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "offline-seen")

    func mtime(_ path: String) -> Double {
        var info = stat()
        stat(path, &info)
        return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    }

    /// `cat` (and `cache pin`) keep the server's time with the copy: an offline `get` gives the file that time, to
    /// the millisecond where the server's checksum answer carries it, else Last-Modified's seconds (it was the time
    /// of the `get`).
    @Test(arguments: [[], ["--api", "seed"]])
    func anOfflineGetOfWhatCatCachedKeepsTheServersTime(_ mode: [String]) async throws {
        let server = try await ReferenceServer.start(arguments: mode, inMemory: true)
        #expect(try await cli.login(server).status == 0)
        let seed = mode.contains("seed")
        let time = seed ? 1_700_000_000.0 : 1_700_000_000.123
        for name in ["catted.txt", "pinned.txt"] {
            let file = try server.root.write(name, "kept with its time\n")
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: time)], ofItemAtPath: file)
        }
        #expect(try await cli.run(["cat", "officer:/catted.txt"]).status == 0)
        #expect(try await cli.run(["cache", "pin", "officer:/pinned.txt"]).status == 0)
        for name in ["catted.txt", "pinned.txt"] {
            let got = try await cli.run(["--offline", "get", "officer:/\(name)", work.file(name)])
            #expect(got.status == 0, "\(got.stderr)")
            #expect(abs(mtime(work.file(name)) - time) < 0.0005, "\(name): \(mtime(work.file(name)))")
        }
    }

    /// A file this tool just uploaded, into a folder it never listed, can be queued for removal offline: its own
    /// write says what the server holds (it said "its version on the server is unknown here", exit 9).
    @Test func aFileJustUploadedCanBeQueuedForRemovalOffline() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        #expect(try await cli.login(server).status == 0)
        let local = try work.write("k.txt", "kept\n")
        #expect(try await cli.run(["put", local, "officer:/k.txt"]).status == 0)
        let queued = try await cli.run(["--offline", "rm", "--queue", "officer:/k.txt"])
        #expect(queued.status == 0, "\(queued.stderr)")
        let replay = try await cli.run(["queue", "run"])
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(!FileManager.default.fileExists(atPath: server.root.file("k.txt")))
    }
}

import Foundation
import Journal
import TestSupport
import Testing
import Transfer

/// Unattended runs past the token's end, against a server whose tokens last a minute (`--token-ttl`) on a clock
/// the test moves forward (`--test-clock`), so nothing waits for a token to expire in real time: with a way to
/// sign in again (`login --remember`, a 0600 password file, `OFFICER_PASSWORD_FILE`) every command goes on;
/// without one, a watcher stops with the authentication exit code and one line instead of failing forever.
@Suite struct TokenRenewalTests {
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "token-renewal", inMemory: true)

    func startServer(tokenSeconds: Int = 60) async throws -> ReferenceServer {
        try await ReferenceServer.start(
            arguments: ["--token-ttl", String(tokenSeconds), "--test-clock"], inMemory: true)
    }

    func login(_ server: ReferenceServer, _ extra: [String] = []) async throws -> ProcessResult {
        try await cli.run(
            ["login", "--server", server.url, "--email", server.email, "--password-stdin"] + extra,
            stdin: server.password + "\n")
    }

    /// `watch --json --settle 0.5 LOCAL officer:/Camera` with its events in `log` and its errors in `errors`.
    func startWatch(_ local: String, log: String, errors: String, environment: [String: String] = [:]) throws -> Process
    {
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProcessRunner.cliPath)
        process.arguments = ["--json", "watch", "--settle", "0.5", local, "officer:/Camera"]
        process.environment = cli.environment(environment)
        process.standardOutput = FileHandle(forWritingAtPath: log)
        process.standardError = FileHandle(forWritingAtPath: errors)
        try ProcessRunner.spawning { try process.run() }
        return process
    }

    /// Eight files, each sent after the token the watcher last had expired, all reach the server, the watcher still
    /// running; then a plain `ls`, long after the token it started with expired, works too, and the config holds
    /// a new token.
    @Test func aRememberedLoginKeepsAWatchAndEveryCommandGoing() async throws {
        let server = try await startServer()
        let login = try await login(server, ["--remember"])
        try #require(login.status == 0, "\(login.stderr)")
        let firstToken = try cli.savedToken()
        let mode = try FileManager.default.attributesOfItem(atPath: cli.configPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let local = work.file("DCIM")
        try FileManager.default.createDirectory(atPath: local, withIntermediateDirectories: true)
        let log = work.file("watch.log")
        let errors = work.file("watch.err")
        let watcher = try startWatch(local, log: log, errors: errors)
        defer {
            watcher.terminate()
            watcher.waitUntilExit()
        }
        let camera = server.root.file("Camera")
        for index in 0..<8 {
            try work.write("DCIM/shot-\(index).txt", "taken at second \(index)\n")
            #expect(
                await Eventually.wait(timeout: 30) {
                    FileManager.default.fileExists(atPath: camera + "/shot-\(index).txt")
                })
            try await server.advanceClock(by: 61)
        }
        let all = await Eventually.wait(timeout: 30) {
            (0..<8).allSatisfy { FileManager.default.fileExists(atPath: camera + "/shot-\($0).txt") }
        }
        #expect(
            all,
            "on the server: \(((try? FileManager.default.contentsOfDirectory(atPath: camera)) ?? []).sorted()); \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")"
        )
        #expect(
            watcher.isRunning, "the watcher stopped: \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
        let failures = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").filter {
            $0.contains("\"event\":\"failed\"")
        }
        #expect(failures.isEmpty, "\(failures)")
        try await server.advanceClock(by: 61)
        let listing = try await cli.run(["ls", "officer:/Camera"])
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stdout.contains("shot-7.txt"))
        #expect(try cli.savedToken() != firstToken)
    }

    /// A token refused in the middle of an upload, with no way to sign in again: the put says the upload is paused
    /// at what the server kept, and the login that lets the same command continue it, exactly as it runs.
    @Test func aTokenRefusedMidUploadSaysThePauseAndTheWayBack() async throws {
        let server = try await startServer(tokenSeconds: 3600)
        #expect(try await login(server).status == 0)
        // Paced to take sixteen seconds: a poller starved on a loaded machine still finds it under way.
        let local = try work.write("big.bin", Data(repeating: 3, count: 16_000_000))
        // Small chunks: the request after the refusal is never one already on its way with the whole rest.
        let put = try cli.launchCapturingErrors(
            ["put", "--bwlimit", "1M", "--chunk-size", "256K", local, "officer:/big.bin"])
        let journal = cli.journalPath
        let confirmed: @Sendable () -> Bool = {
            ((try? TransferJournal(watching: journal).uploads().first?.parts.reduce(0) { $0 + $1.offset }) ?? 0) > 0
        }
        // Revoked from the polling thread the moment bytes are confirmed (a sign-out elsewhere): the test's own task
        // may get a thread back only after the whole upload on a loaded machine.
        let token = try cli.savedToken()
        let signout = server.url + "/api/auth/signout"
        let revoked = await Eventually.wait(timeout: 60, { confirmed() }) {
            let curl = Process()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            curl.arguments = ["-sf", "-X", "POST", "-H", "Authorization: Bearer \(token)", signout]
            curl.standardOutput = FileHandle.nullDevice
            try? curl.run()
            curl.waitUntilExit()
        }
        #expect(revoked, "bytes confirmed, then the token revoked")
        let told = put.stderr()
        #expect(put.process.terminationStatus == 3, "\(told)")
        #expect(
            told.contains("\(local) is paused at ") && told.contains(", kept on the server: log in again with: ")
                && told.contains("then run the same command to continue"), "\(told)")
    }

    /// Without a way to sign in again, the first upload after the token expired stops the watcher: exit 3, and
    /// its standard error is one line that says so and how to log in again.
    @Test func withoutOneTheWatcherStopsWithItsOwnCode() async throws {
        // The token is revoked once the first file is up (a sign-out elsewhere): no timing to race on a busy machine.
        let server = try await startServer(tokenSeconds: 3600)
        #expect(try await login(server).status == 0)
        let local = work.file("DCIM")
        try work.write("DCIM/first.txt", "sent while the token is good\n")
        let log = work.file("watch.log")
        let errors = work.file("watch.err")
        let watcher = try startWatch(local, log: log, errors: errors)
        let camera = server.root.file("Camera")
        #expect(await Eventually.wait(timeout: 30) { FileManager.default.fileExists(atPath: camera + "/first.txt") })
        let revoked = try await ProcessRunner.runDetached(
            "/usr/bin/curl",
            [
                "-sf", "-X", "POST", "-H", "Authorization: Bearer \(try cli.savedToken())",
                server.url + "/api/auth/signout",
            ])
        #expect(revoked.status == 0, "\(revoked.stderr)")
        try work.write("DCIM/second.txt", "sent after it expired\n")
        let stopped = await Eventually.wait(timeout: 30) { !watcher.isRunning }
        if !stopped { watcher.terminate() }
        watcher.waitUntilExit()
        #expect(stopped, "the watcher kept running past the token's end")
        #expect(watcher.terminationStatus == 3)
        let lines = ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").split(separator: "\n")
        // Worded by the request that met the refusal: an API call reads the server's "expired", an upload does not.
        let hint = "; log in again with: officer-files login --server \(server.url) --email \(server.email)"
        let said = ["your session has expired", "the server no longer accepts the token"].map {
            "officer-files: \(server.url): " + $0 + hint
        }
        #expect(lines.count == 1 && said.contains(String(lines[0])), "\(lines)")
        #expect(!FileManager.default.fileExists(atPath: camera + "/second.txt"))
    }

    /// Without one, a token refused mid-sync stops the sync at that refusal: exit 3, one line that says how to log
    /// in again, nothing more tried; after `login` the same command sends the rest. Before: "18 transferred, 35
    /// errors", exit 1, a line per file.
    @Test func withoutOneASyncStopsAtTheFirstRefusal() async throws {
        let server = try await startServer(tokenSeconds: 3600)
        // Uploads at 100 kB/s (the proxy slows what goes up), about 0.2 s a file, one at a time, 100 files: some 20 s,
        // so the token is revoked early in it however long a loaded machine takes to do so.
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)", ["--throttle", "100000", "--direction", "up"])
        #expect(try await cli.login(server, url: proxy.url).status == 0)
        for index in 0..<100 { try work.write("many/f\(index + 10).bin", Data(repeating: UInt8(index), count: 20_000)) }
        let many = server.root.file("many")
        let landed: @Sendable () -> Int = {
            ((try? FileManager.default.contentsOfDirectory(atPath: many)) ?? []).filter { $0.hasSuffix(".bin") }.count
        }
        let token = try cli.savedToken()
        let signOut = server.url + "/api/auth/signout"
        let sync = try cli.launchCapturingErrors(["sync", "--transfers", "1", work.file("many"), "officer:/many"])
        // Revoked by the polling thread the moment three files are there: a test body waiting for a thread of the
        // shared pool cannot be late.
        let revoked = await Eventually.wait(
            timeout: 600, { landed() >= 3 },
            then: {
                _ = try? ProcessRunner.run(
                    "/usr/bin/curl", ["-sf", "-X", "POST", "-H", "Authorization: Bearer \(token)", signOut])
            })
        #expect(revoked)
        sync.process.waitUntilExit()
        #expect(sync.process.terminationStatus == 3)
        let lines = sync.stderr().split(separator: "\n")
        let hint = "; log in again with: officer-files login --server \(proxy.url) --email \(server.email)"
        let said = ["your session has expired", "the server no longer accepts the token"].map {
            "officer-files: \(proxy.url): " + $0 + hint
        }
        #expect(lines.count == 1 && said.contains(String(lines[0])), "\(lines)")
        #expect(landed() < 100, "stopped at the refusal, not run to the end")
        // Signed in again (straight to the server, not through the slow proxy), the same sync sends the rest.
        #expect(try await cli.login(server).status == 0)
        let rest = try await cli.run(["sync", work.file("many"), "officer:/many"])
        #expect(rest.status == 0 && landed() == 100, "\(rest.stderr)")
    }

    /// A password file: refused unless only its owner can read it; `login --remember --password-file` keeps
    /// its path (not the password) and reads it when the token expires; `OFFICER_PASSWORD_FILE` does the same
    /// for a login that remembered nothing; without either, an expired token is exit 3.
    @Test func aPasswordFileSignsInAgainOnlyWhenPrivate() async throws {
        let server = try await startServer()
        let passwordFile = try work.write("password", server.password + "\n")
        chmod(passwordFile, 0o644)
        let open = try await cli.run([
            "login", "--server", server.url, "--email", server.email, "--password-file", passwordFile, "--remember",
        ])
        #expect(open.status != 0)
        #expect(open.stderr.contains("chmod 600"), "\(open.stderr)")
        chmod(passwordFile, 0o600)
        let remembered = try await cli.run([
            "login", "--server", server.url, "--email", server.email, "--password-file", passwordFile, "--remember",
        ])
        try #require(remembered.status == 0, "\(remembered.stderr)")
        let config = try String(contentsOfFile: cli.configPath, encoding: .utf8)
        let saved = try JSONSerialization.jsonObject(with: Data(config.utf8)) as? [String: Any]
        #expect(!config.contains(server.password) && saved?["passwordFile"] as? String == passwordFile, "\(config)")
        try await server.advanceClock(by: 61)
        let renewed = try await cli.run(["ls", "officer:/"])
        #expect(renewed.status == 0, "\(renewed.stderr)")

        // A login without --remember forgets it: an expired token is the end, unless the environment names a file.
        #expect(try await login(server).status == 0)
        let forgotten =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cli.configPath)))
            as? [String: Any]
        #expect(forgotten?["passwordFile"] == nil && forgotten?["password"] == nil)
        try await server.advanceClock(by: 61)
        let expired = try await cli.run(["ls", "officer:/"])
        #expect(expired.status == 3, "\(expired.stderr)")
        let fromEnvironment = try await cli.run(
            ["ls", "officer:/"], environment: ["OFFICER_PASSWORD_FILE": passwordFile])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
        chmod(passwordFile, 0o640)
        try await server.advanceClock(by: 61)
        let tooOpen = try await cli.run(["ls", "officer:/"], environment: ["OFFICER_PASSWORD_FILE": passwordFile])
        #expect(tooOpen.status == 3, "\(tooOpen.stderr)")
        #expect(tooOpen.stderr.contains("chmod 600"), "why signing in again failed: \(tooOpen.stderr)")
    }
}

import Foundation
import HTTP
import Journal
import Officer
import TestSupport
import Testing
import Transfer

/// The token lives in the 0600 config and nowhere else: not in any output of verbose runs of every kind of
/// command, not in the journal (an interrupted upload's row included), the cache or any other file.
@Suite struct SecretsTests {
    @Test func theTokenIsOnlyInTheConfig() async throws {
        let server = try await ReferenceServer.start()
        let cli = CLIRunner()
        let work = TemporaryDirectory(prefix: "secrets")
        #expect(try await cli.login(server).status == 0)
        let token = try cli.savedToken()
        try #require(token.count > 20)
        try work.write("up/a.txt", "alpha\n")
        // Above the inline limit: POST, journal, then PATCH.
        try work.write("big.bin", Data(repeating: 3, count: 8_000_000))
        try server.root.write("docs/n.txt", "note\n")
        var outputs: [ProcessResult] = []
        for arguments in [
            ["-v", "put", work.file("up/a.txt"), "officer:/"],
            ["-v", "get", "officer:/docs/n.txt", work.file("n.txt")],
            ["-v", "cat", "officer:/docs/n.txt"], ["-v", "cat", "officer:/docs/n.txt"],
            ["-v", "sync", work.file("up"), "officer:/up"],
            ["-v", "--json", "tts", "--text", "hi", "-o", work.file("hi.wav")], ["-v", "ls", "-R", "officer:/"],
            ["-v", "info", "officer:/docs/n.txt"], ["-v", "cache", "ls"], ["-v", "transfers", "list"],
        ] {
            outputs.append(try await cli.run(arguments))
        }
        // An upload killed midway leaves its journal row (the tus URL): that row must not carry the token either.
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)", ["--throttle", "1000000", "--direction", "up"])
        let killed = try cli.launch(
            ["-v", "put", work.file("big.bin"), "officer:/"],
            environment: ["OFFICER_SERVER": proxy.url, "OFFICER_TOKEN": token])
        #expect(
            await Eventually.signal(SIGKILL, to: [killed]) {
                (try? (cli.watchedJournal()?.uploads() ?? []).isEmpty) == false
            })
        killed.waitUntilExit()
        for output in outputs {
            #expect(!output.stdout.contains(token) && !output.stderr.contains(token))
        }
        #expect(outputs[0].stderr.contains("Authorization: Bearer [REDACTED]"))
        var scanned = 0
        let enumerator = FileManager.default.enumerator(atPath: cli.home.path)
        while let relative = enumerator?.nextObject() as? String {
            let path = cli.home.path + "/" + relative
            guard path != cli.configPath, let data = FileManager.default.contents(atPath: path) else { continue }
            scanned += 1
            #expect(data.range(of: Data(token.utf8)) == nil, "the token is in \(relative)")
        }
        #expect(scanned > 5, "journal, cache index and entries were scanned")
    }

    /// `login --remember` keeps the password in the 0600 config and nowhere else: not in the output of verbose
    /// runs that signed in again because the token had expired (nor the tokens, old or new), not in any other file.
    @Test func aRememberedPasswordIsOnlyInTheConfig() async throws {
        let server = try await ReferenceServer.start(arguments: ["--token-ttl", "60", "--test-clock"])
        let cli = CLIRunner()
        let work = TemporaryDirectory(prefix: "secrets-remembered")
        let login = try await cli.run(
            ["-v", "login", "--server", server.url, "--email", server.email, "--password-stdin", "--remember"],
            stdin: server.password + "\n")
        try #require(login.status == 0, "\(login.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: cli.configPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try work.write("up/a.txt", "alpha\n")
        var tokens = [try cli.savedToken()]
        var outputs = [login]
        for arguments in [
            ["-v", "ls", "officer:/"], ["-v", "put", work.file("up/a.txt"), "officer:/"],
            ["-v", "sync", work.file("up"), "officer:/up"],
        ] {
            try await server.advanceClock(by: 61)  // the token it has expired
            let output = try await cli.run(arguments)
            #expect(output.status == 0, "\(arguments): \(output.stderr)")
            #expect(output.stderr.contains("signed in again"), "\(arguments) said it signed in again under -v")
            outputs.append(output)
            tokens.append(try cli.savedToken())
        }
        #expect(Set(tokens).count == tokens.count, "each run signed in again")
        for output in outputs {
            for secret in [server.password] + tokens {
                #expect(!output.stdout.contains(secret) && !output.stderr.contains(secret))
            }
        }
        let enumerator = FileManager.default.enumerator(atPath: cli.home.path)
        while let relative = enumerator?.nextObject() as? String {
            let path = cli.home.path + "/" + relative
            guard path != cli.configPath, let data = FileManager.default.contents(atPath: path) else { continue }
            #expect(data.range(of: Data(server.password.utf8)) == nil, "the password is in \(relative)")
        }
    }
}

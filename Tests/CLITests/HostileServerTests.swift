import Foundation
import HTTP
import Officer
import TestSupport
import Testing
import Transfer

/// The CLI against a server that misbehaves on purpose (`Tests/Server/hostile_server.py`): a token or a file's
/// bytes never reach another origin, nothing a server sends can fill the disk, loop forever or drive the terminal.
@Suite struct HostileServerTests {
    let work = TemporaryDirectory(prefix: "hostile")
    /// The servers a test started, kept running until the test ends (a stopped one would only refuse connections).
    let servers = ServerList()

    /// A CLI logged in to a hostile server in `mode`.
    func loggedIn(_ mode: String) async throws -> (BackgroundService, CLIRunner) {
        let server = try await startHostileServer(mode: mode)
        servers.add(server)
        let cli = CLIRunner()
        let login = try await cli.run(
            ["login", "--server", server.url, "--email", "m@example.org", "--password-stdin"], stdin: "anything\n")
        try #require(login.status == 0, "\(login.stderr)")
        return (server, cli)
    }

    /// What the bystander (the hostile server's second origin) received.
    func recorded(_ server: BackgroundService) async throws -> [[String: Any]] {
        let response = try await HTTPClient.curl.send(HTTPRequest(url: server.url + "/_hostile/recorded"))
        return try JSONSerialization.jsonObject(with: response.body) as? [[String: Any]] ?? []
    }

    /// True when the text holds no byte a terminal would act on (ESC, BEL, other C0 controls but line breaks and tabs).
    func isTerminalSafe(_ text: String) -> Bool {
        !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F }
    }

    @Test func aTusLocationOnAnotherOriginGetsNeitherTheTokenNorTheBytes() async throws {
        let (server, cli) = try await loggedIn("tus-elsewhere")
        try work.write("big.bin", Data(repeating: 7, count: 6_000_000))
        let put = try await cli.run(["put", work.file("big.bin"), "officer:/"])
        #expect(put.status == 7, "\(put.stderr)")
        #expect(put.stderr.contains("another server"), "\(put.stderr)")
        // Refused at once, not retried as before: told by what it did, not by the time a loaded machine takes.
        #expect(!put.stderr.contains("retrying"), "\(put.stderr)")
        #expect(try await recorded(server).isEmpty, "nothing went to the other origin")
    }

    @Test func aTokenThatIsNotOneSafeLineIsNeverStoredOrSent() async throws {
        let injecting = try await startHostileServer(mode: "token-inject")
        servers.add(injecting)
        let cli = CLIRunner()
        let login = try await cli.run(
            ["login", "--server", injecting.url, "--email", "m@example.org", "--password-stdin"], stdin: "x\n")
        #expect(login.status == 7 && login.stderr.contains("token"), "\(login.stderr)")
        #expect(((try? cli.savedToken()) ?? "").isEmpty, "nothing stored")

        let huge = try await startHostileServer(mode: "token-huge")
        servers.add(huge)
        let second = try await cli.run(
            ["login", "--server", huge.url, "--email", "m@example.org", "--password-stdin"], stdin: "x\n")
        #expect(second.status == 7 && second.stderr.count < 1000, "\(second.stderr.prefix(300))")
        let configSize = (try? FileManager.default.attributesOfItem(atPath: cli.configPath)[.size] as? Int) ?? 0
        #expect(configSize < 4096)

        // From the environment and from a config written by something else: refused before any request.
        let fromEnvironment = try await cli.run(
            ["ls", "officer:/"],
            environment: ["OFFICER_SERVER": injecting.url, "OFFICER_TOKEN": "abc\r\nX-Injected: yes"])
        #expect(
            fromEnvironment.status == 3 && fromEnvironment.stderr.contains("OFFICER_TOKEN"), "\(fromEnvironment.stderr)"
        )
        try FileManager.default.createDirectory(
            atPath: (cli.configPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let config = #"{"server": "\#(injecting.url)", "token": "abc\r\nX-Injected: yes"}"#
        #expect(
            FileManager.default.createFile(
                atPath: cli.configPath, contents: Data(config.utf8), attributes: [.posixPermissions: 0o600]))
        let fromConfig = try await cli.run(["ls", "officer:/"])
        #expect(fromConfig.status == 8 && fromConfig.stderr.contains("log in again"), "\(fromConfig.stderr)")
    }

    @Test func stringsFromTheServerCannotDriveTheTerminal() async throws {
        let (_, cli) = try await loggedIn("escapes")
        var outputs: [ProcessResult] = []
        for arguments in [
            ["ls", "officer:/"], ["ls", "-l", "officer:/"], ["ls", "-R", "officer:/"], ["stat", "officer:/plain.txt"],
            ["whoami"], ["info", "officer:/plain.txt"], ["stat", "officer:/missing"],
            ["sync", "officer:/Sync", work.file("pulled")],
        ] {
            outputs.append(try await cli.run(arguments))
        }
        for (index, output) in outputs.enumerated() {
            #expect(
                isTerminalSafe(output.stdout) && isTerminalSafe(output.stderr),
                "run \(index): \(output.stdout.debugDescription) \(output.stderr.debugDescription)")
        }
        #expect(outputs[0].stdout.contains("\\u001b]0;owned\\u0007"), "escaped, still recognisable")
        #expect(outputs[6].status == 4 && outputs[6].stderr.contains("missing"))
        // The sync refuses the two names (the one name rule) and lists them; it writes no file named with a control.
        #expect(outputs[7].status == 1 && outputs[7].stderr.contains("control character"), "\(outputs[7].stderr)")
        let pulled = (try? FileManager.default.contentsOfDirectory(atPath: work.file("pulled"))) ?? []
        #expect(pulled.allSatisfy { isTerminalSafe($0) }, "\(pulled)")
        // --json stays exact: the names decode to what the server sent.
        let json = try await cli.run(["--json", "ls", "officer:/"])
        let names = json.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["name"] as? String
        }
        #expect(names.contains("\u{1b}]0;owned\u{07}") && names.contains("\u{1b}[2J"))
    }

    @Test func anEndlessBodyStopsAtTheLengthExpected() async throws {
        let (_, cli) = try await loggedIn("endless")
        try FileManager.default.createDirectory(atPath: work.file("get"), withIntermediateDirectories: true)
        let get = try await cli.run(["get", "officer:/a.bin", work.file("get") + "/"])
        #expect(get.status == 7 && get.stderr.contains("more than"), "\(get.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: work.file("get"))
        #expect(!left.contains("a.bin"), "nothing under the final name")
        for name in left {
            let size = try FileManager.default.attributesOfItem(atPath: work.file("get/" + name))[.size] as? Int ?? 0
            #expect(size <= 1 << 20, "\(name) holds \(size) bytes")
        }
        // cat: the raw endpoint must say how long a file is; an answer without a length is refused before any byte.
        let cat = try await cli.run(["--no-cache", "cat", "officer:/a.bin"])
        #expect(cat.status == 7 && cat.stdout.isEmpty, "\(cat.stderr)")
        // A pull: the listing says 6 bytes; an endless answer and a 28-byte one are both failures, neither lands.
        let pull = try await cli.run(["sync", "officer:/Pull", work.file("pull")])
        #expect(pull.status == 1 && pull.stderr.contains("2 errors"), "\(pull.stderr)")
        let pulled = (try? FileManager.default.contentsOfDirectory(atPath: work.file("pull"))) ?? []
        #expect(!pulled.contains("a.bin") && !pulled.contains("b.bin"), "\(pulled)")
    }

    @Test func aCursorThatDoesNotMoveForwardEndsTheListingAtOnce() async throws {
        let (_, cli) = try await loggedIn("cursor-stuck")
        let list = try await cli.run(["ls", "-R", "officer:/"])
        #expect(list.status == 7 && list.stderr.contains("cursor did not move forward"), "\(list.stderr.prefix(300))")
        #expect(list.stdout.split(separator: "\n").count <= 2000, "two pages at most")
        // A sync stops at the refused listing with one line, and does not go on with the page it accepted (it
        // printed an error for each of its 1,000 files, past 40 s on a loaded machine).
        for dryRun in [true, false] {
            let sync = try await cli.run(["sync"] + (dryRun ? ["-n"] : []) + ["officer:/Sync", work.file("s")])
            let lines = sync.stderr.split(separator: "\n")
            #expect(
                sync.status == 7 && lines.count == 1 && lines[0].contains("cursor did not move forward")
                    && lines[0].contains("the sync stopped"), "\(sync.stderr.prefix(600))")
        }
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: work.file("s"))) ?? []).count < 1000)
    }

    @Test func aTricklingServerFailsAfterTheLowSpeedWindow() async throws {
        let (_, cli) = try await loggedIn("trickle")
        // What ended it is in the message (the 3 s window, not the 30 s stall timeout it never reaches), not in
        // the time taken, which a loaded machine stretches.
        let list = try await cli.run(["--speed-time", "3", "ls", "officer:/"])
        #expect(list.status == 6 && list.stderr.contains("slower than 1.00 KiB/s for 3 s"), "\(list.stderr)")
        let (_, treeCLI) = try await loggedIn("tree-trickle")
        let walk = try await treeCLI.run(["--speed-time", "3", "--speed-limit", "2K", "ls", "-R", "officer:/"])
        #expect(walk.status == 6 && walk.stderr.contains("slower than"), "\(walk.stderr)")
        let bad = try await cli.run(["--speed-time", "soon", "ls", "officer:/"])
        #expect(bad.status == 2 && bad.stderr.contains("--speed-time"))
    }

    @Test func apiCallsNeverFollowARedirectToAnotherOriginAndDownloadsGoWithoutTheToken() async throws {
        let (server, cli) = try await loggedIn("redirect-elsewhere")
        let list = try await cli.run(["ls", "officer:/"])
        #expect(
            list.status == 9 && !list.stdout.contains("STOLEN") && list.stderr.contains("redirect"), "\(list.stderr)")
        let get = try await cli.run(["-v", "get", "officer:/f.bin", work.file("f.bin")])
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stderr.contains("redirected (302) to http://127.0.0.1:"), "every hop is shown")
        let seen = try await recorded(server)
        #expect(!seen.isEmpty && seen.allSatisfy { $0["authorization"] is NSNull }, "\(seen)")
    }

    @Test func smallerFaultsAreReportedAsTheServers() async throws {
        let (_, cli) = try await loggedIn("huge-header")
        let huge = try await cli.run(["ls", "officer:/"])
        #expect(huge.status == 7 && huge.stderr.contains("headers are too large"), "\(huge.stderr)")

        let (_, htmlCLI) = try await loggedIn("html-error")
        // A seed endpoint's 404 without the contract's body (a proposal's would mean "not offered").
        let missing = try await htmlCLI.run(["ls", "officer:/some/file.txt"])
        #expect(
            missing.status == 4 && missing.stderr.contains("/some/file.txt") && missing.stderr.contains("404"),
            "\(missing.stderr)")

        // Another tus server's 409 is told with the file and the URL, and without an option that would not help.
        let tus = try await startHostileServer(mode: "tus-conflict")
        servers.add(tus)
        try work.write("f.bin", "bytes")
        let conflict = try await CLIRunner().run(["put", work.file("f.bin"), tus.url + "/files/"])
        #expect(conflict.status == 5 && conflict.stderr.contains("f.bin -> \(tus.url)/files/"), "\(conflict.stderr)")
        #expect(conflict.stderr.contains("in progress") && !conflict.stderr.contains("--force"), "\(conflict.stderr)")

        // A mixed listing: the escaping paths and the file/folder clash are each listed by name.
        let (_, mixedCLI) = try await loggedIn("mixed-names")
        let pull = try await mixedCLI.run(["sync", "-n", "officer:/Mixed", work.file("mixed")])
        #expect(pull.status == 1)
        for name in ["escape1.txt", "escape2.txt", "same"] {
            #expect(pull.stderr.contains(name), "\(name) in \(pull.stderr)")
        }
    }
}

/// Services that must outlive the statements that started them.
final class ServerList: @unchecked Sendable {
    private let lock = NSLock()
    private var services: [BackgroundService] = []
    func add(_ service: BackgroundService) { lock.withLock { services.append(service) } }
}

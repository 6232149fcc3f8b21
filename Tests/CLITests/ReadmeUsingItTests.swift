import Foundation
import TestSupport
import Testing

/// The README's "Using it" block, run as it is printed, line after line in its order, against a fresh server
/// holding the files the block names (`Tests/Fixtures/scripts/readme-world.sh`): each line must succeed. Only
/// what cannot be on this machine is replaced, each replacement listed in ``Substitution``: the addresses
/// (the Officer server and example.org are loopback servers here), the account, and the checksum the README
/// shortens. The password is typed at the prompt of a real terminal, and `watch` is stopped with Ctrl-C once
/// it caught up. Before, three lines failed on a fresh server: `cat` and `get --zip` of a file an earlier line
/// moved, and an offline move of a file in a folder never listed.
@Suite struct ReadmeUsingItTests {
    let cli = CLIRunner()

    /// One replacement of the README's text by this machine's.
    struct Substitution {
        var written: String
        var here: String
    }

    /// The lines of the sh block under `## Using it`, comments dropped.
    static func block() throws -> [String] {
        let readme = try String(contentsOfFile: ProcessRunner.packageRoot + "/README.md", encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        let heading = try #require(lines.firstIndex(of: "## Using it"))
        let start = try #require(lines[heading...].firstIndex(of: "```sh")) + 1
        let end = try #require(lines[start...].firstIndex(of: "```"))
        return lines[start..<end].map { line in
            // A comment starts after a run of spaces; a `#` inside a command has none before it.
            guard let comment = line.range(of: #"\s{2,}# "#, options: .regularExpression) else { return line }
            return String(line[..<comment.lowerBound])
        }
    }

    @Test func theBlockRunsInOrderOnAFreshServer() async throws {
        try await HeavyWork.shared.run { try await runTheBlock() }
    }

    func runTheBlock() async throws {
        let web = try await NginxServer.start(directives: "types { video/mp4 mp4; application/octet-stream iso; }")
        let server = try await ReferenceServer.start(arguments: ["--fetch-allow-port", String(web.port)])
        defer { server.service.stop() }
        let home = cli.home.path
        let world = try await ProcessRunner.runDetached(
            ProcessRunner.packageRoot + "/Tests/Fixtures/scripts/readme-world.sh",
            [home, server.root.path, web.root.path])
        try #require(world.status == 0, "\(world.stderr)")
        // `officer-files` on the PATH, as an installed one is.
        let bin = home + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: bin + "/officer-files", withDestinationPath: ProcessRunner.cliPath)
        let environment = cli.environment(["PATH": bin + ":/usr/bin:/bin"])
        let digest = try await ProcessRunner.sha256Detached(of: web.root.file("image.iso"))
        let substitutions = [
            Substitution(written: "https://officer.example.org", here: server.url),
            Substitution(written: "you@example.org", here: "ann@example.org"),
            Substitution(written: "https://example.org", here: web.url),
            Substitution(written: "sha256:9f86…", here: "sha256:" + digest),
        ]
        var failures: [String] = []
        for written in try Self.block() {
            let line = substitutions.reduce(written) { $0.replacingOccurrences(of: $1.written, with: $1.here) }
            let outcome: String?
            if line.contains(" login ") {
                outcome = try await typingThePassword(line, environment: environment)
            } else if line.contains(" watch ") {
                outcome = try await watchingUntilCaughtUp(line, environment: environment, server: server)
            } else {
                // pipefail: `cat … | less` fails when cat does.
                let result = try await ProcessRunner.runDetached(
                    "/bin/bash", ["-o", "pipefail", "-c", line], environment: environment,
                    currentDirectory: home + "/work")
                outcome = result.status == 0 ? nil : "exit \(result.status): \(result.stderr)"
            }
            if let outcome { failures.append("\(written)\n    \(outcome)") }
        }
        #expect(failures.isEmpty, "\(failures.count) lines failed:\n\(failures.joined(separator: "\n"))")
        // What the block did, as the server holds it. `fetch` (stderr not a terminal) leaves its job running on the
        // server and says so: the server's download is awaited (a bounded poll of the server's folder).
        for path in [
            "Archive/2026/notes.md", "Archive/draft.md", "Photos/2026/beach.jpg", "Backup/big.tar", "Camera",
            "Backups/notes.tar", "Videos/talk.480p.mp4", "Backups/site/docs/index.html",
        ] {
            #expect(FileManager.default.fileExists(atPath: server.root.file(path)), "\(path) on the server")
        }
        let fetched = server.root.file("Downloads/talk.mp4")
        #expect(await Eventually.wait(timeout: 120) { FileManager.default.fileExists(atPath: fetched) })
        #expect(
            try await ProcessRunner.sha256Detached(of: server.root.file("Backup/big.tar"))
                == (try await ProcessRunner.sha256Detached(of: home + "/work/big.tar")))
    }

    /// `login` at a real terminal: the password typed at its prompt.
    func typingThePassword(_ line: String, environment: [String: String]) async throws -> String? {
        let shown = try await inTerminal(line, environment: environment) { terminal in
            _ = try await terminal.wait(for: "Password for", timeout: 60)
            try await terminal.send("correct horse")
            try await terminal.send("Enter")
        }
        return shown.contains("EXIT=0") && !shown.contains("correct horse") ? nil : shown
    }

    /// `watch` until it has caught up (its first photo on the server), then Ctrl-C, its way to stop: exit 0.
    func watchingUntilCaughtUp(_ line: String, environment: [String: String], server: ReferenceServer)
        async throws -> String?
    {
        let shown = try await inTerminal(line, environment: environment) { terminal in
            _ = try await terminal.wait(for: "caught up", timeout: 120)
            try await terminal.send("C-c")
        }
        let uploaded = (try? FileManager.default.contentsOfDirectory(atPath: server.root.file("Camera"))) ?? []
        return shown.contains("EXIT=0") && uploaded.count == 1 ? nil : "\(uploaded): \(shown)"
    }

    /// Runs `line` in a terminal, does `act` there, and gives the screen once the line ended (the session stopped
    /// whatever happened).
    func inTerminal(
        _ line: String, environment: [String: String], act: (TerminalSession) async throws -> Void
    ) async throws -> String {
        let terminal = try await TerminalSession.start(["/bin/bash", "-c", line], environment: environment)
        let screen: Result<String, any Error>
        do {
            try await act(terminal)
            screen = .success(try await terminal.wait(for: "EXIT=", timeout: 60).joined(separator: "\n"))
        } catch {
            screen = .failure(error)
        }
        await terminal.stop()
        return try screen.get()
    }
}

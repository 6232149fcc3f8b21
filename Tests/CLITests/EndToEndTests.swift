import Foundation
import TestSupport
import Testing

/// The built CLI against the reference server: every command, every error mapped to a message and an exit code.
@Suite struct EndToEndTests {
    let server: ReferenceServer
    let cli: CLIRunner

    init() async throws {
        server = try await ReferenceServer.start()
        cli = CLIRunner()
    }

    func token() throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: cli.configPath))
        return (try JSONSerialization.jsonObject(with: data) as! [String: Any])["token"] as! String
    }

    @Test func loginWhoamiLogout() async throws {
        let login = try await cli.login(server)
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.contains("Logged in to \(server.url) as \(server.email)"))
        let attributes = try FileManager.default.attributesOfItem(atPath: cli.configPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try token().split(separator: ".").count == 3)

        let whoami = try await cli.run(["whoami"])
        #expect(whoami.status == 0 && whoami.stdout == "\(server.email) (owner) on \(server.url)\n")
        let json = try await cli.run(["whoami", "--json"])
        #expect(json.stdout.contains("\"email\":\"\(server.email)\""))

        let logout = try await cli.run(["logout"])
        #expect(logout.status == 0 && logout.stdout.contains("Logged out."))
        let after = try await cli.run(["whoami"])
        #expect(after.status == 3 && after.stderr.contains("log in again"))
    }

    @Test func wrongPasswordAndMissingPassword() async throws {
        let wrong = try await cli.run(
            ["login", "--server", server.url, "--email", server.email, "--password-stdin"], stdin: "nope\n")
        #expect(wrong.status == 3 && wrong.stderr == "officer-files: wrong email or password for \(server.email)\n")
        #expect(!FileManager.default.fileExists(atPath: cli.configPath))
        let empty = try await cli.run(
            ["login", "--server", server.url, "--email", server.email, "--password-stdin"], stdin: "")
        #expect(empty.status == 2 && empty.stderr.contains("no password"))
        let noEmail = try await cli.run(["login", "--server", server.url])
        #expect(noEmail.status == 2 && noEmail.stderr.contains("--email"))
    }

    @Test func refusesAServerThatIsNotOfficer() async throws {
        let probe = try await startRedirectProbe()
        let result = try await cli.run(
            ["login", "--server", probe.url, "--email", "a@b", "--password-stdin"], stdin: "x\n")
        #expect(result.status == 7 && result.stderr.contains("no Officer server at \(probe.url)"), "\(result.stderr)")
        let refused = try await cli.run(
            ["login", "--server", "http://127.0.0.1:9", "--email", "a@b", "--password-stdin"], stdin: "x\n")
        #expect(
            refused.status == 6
                && refused.stderr == "officer-files: cannot reach http://127.0.0.1:9 (connection refused)\n",
            "\(refused.stderr)")
        let ftp = try await cli.run(["ls", "--server", "ftp://127.0.0.1/"])
        #expect(ftp.status == 2 && ftp.stderr.contains("only http:// and https://"))
    }

    @Test func fileCommandsChangeTheServer() async throws {
        #expect(try await cli.login(server).status == 0)
        #expect(try await cli.run(["mkdir", "-p", "/photos/2026/nov", "officer:/inbox"]).status == 0)
        try server.root.write("photos/2026/nov/a.jpg", Data(count: 1234))
        try server.root.write("notes.md", "# notes\n")

        let ls = try await cli.run(["ls"])
        #expect(ls.stdout == "inbox/\nphotos/\nnotes.md\n")
        let long = try await cli.run(["ls", "-l", "/photos/2026/nov"])
        #expect(long.stdout.hasPrefix("-rw-r--r--  1234  ") && long.stdout.hasSuffix("  a.jpg\n"))
        let tree = try await cli.run(["ls", "-R", "officer:/photos"])
        #expect(tree.stdout == "2026/\n2026/nov/\n2026/nov/a.jpg\n")
        let ndjson = try await cli.run(["ls", "-R", "--json", "/photos"])
        #expect(
            ndjson.stdout.split(separator: "\n").count == 3
                && ndjson.stdout.contains("\"path\":\"officer:/photos/2026/nov/a.jpg\""), "\(ndjson.stdout)")
        let fileItself = try await cli.run(["ls", "/notes.md"])
        #expect(fileItself.status == 0 && fileItself.stdout == "notes.md\n")

        #expect(try await cli.run(["mv", "/notes.md", "/inbox"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: server.root.file("inbox/notes.md")))
        #expect(try await cli.run(["mv", "/inbox/notes.md", "/inbox/renamed.md"]).status == 0)
        #expect(try await cli.run(["cp", "-r", "/photos", "/backup"]).status == 0)
        #expect(
            try ProcessRunner.sha256(of: server.root.file("backup/2026/nov/a.jpg"))
                == (try ProcessRunner.sha256(of: server.root.file("photos/2026/nov/a.jpg"))))

        let stat = try await cli.run(["stat", "/backup/2026/nov/a.jpg"])
        #expect(stat.stdout.contains("Size: 1234 (1.21 KiB)") && stat.stdout.contains("Type: file"))
        let search = try await cli.run(["search", "A.JPG"])
        #expect(
            search.stdout == "officer:/backup/2026/nov/a.jpg\nofficer:/photos/2026/nov/a.jpg\n",
            "full locations: \(search.stdout)")

        #expect(try await cli.run(["rm", "-r", "/backup", "/inbox/renamed.md"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: server.root.file("backup")))
        #expect(!FileManager.default.fileExists(atPath: server.root.file("inbox/renamed.md")))
    }

    @Test func errorsMapToMessagesAndExitCodes() async throws {
        #expect(try await cli.login(server).status == 0)
        try server.root.write("dir/file.txt", "x")

        let missing = try await cli.run(["ls", "/nope"])
        #expect(
            missing.status == 4 && missing.stderr == "officer-files: officer:/nope: no such file or folder\n",
            "\(missing.stderr)")
        let exists = try await cli.run(["mkdir", "/dir"])
        #expect(exists.status == 5 && exists.stderr.contains("/dir: already exists"))
        let notEmpty = try await cli.run(["rm", "/dir"])
        #expect(notEmpty.status == 5 && notEmpty.stderr.contains("use rm -r"))
        // Conflicts in the user's terms: the options that settle them, never the server's parameter names.
        #expect(!notEmpty.stderr.contains("(set ") && !exists.stderr.contains("(set "))
        #expect(FileManager.default.fileExists(atPath: server.root.file("dir/file.txt")))
        let folderCopy = try await cli.run(["cp", "/dir", "/dir2"])
        #expect(folderCopy.status == 9 && folderCopy.stderr.contains("use cp -r"))
        let clobber = try await cli.run(["cp", "/dir/file.txt", "/dir/file.txt2"])
        #expect(clobber.status == 0)
        let noClobber = try await cli.run(["mv", "/dir/file.txt2", "/dir/file.txt"])
        #expect(
            noClobber.status == 5
                && noClobber.stderr.contains("officer:/dir/file.txt: already exists (use --force to replace it)"),
            "\(noClobber.stderr)")
        #expect(!noClobber.stderr.contains("(set "))
        let traversal = try await cli.run(["ls", "officer:/../etc"])
        #expect(traversal.status == 2 && traversal.stderr.contains("climbs above its root"))
        let topRemoval = try await cli.run(["rm", "-r", "/"])
        #expect(topRemoval.status == 9 && FileManager.default.fileExists(atPath: server.root.file("dir")))
        let force = try await cli.run(["rm", "-f", "/not-there"])
        #expect(force.status == 0)

        // One failure in a batch: the rest still happens, the failure is reported, the exit code says which.
        try server.root.write("a", "a")
        try server.root.write("b", "b")
        let batch = try await cli.run(["rm", "/a", "/missing", "/b"])
        #expect(
            batch.status == 4 && batch.stderr.contains("/missing: no such file or folder")
                && batch.stderr.contains("1 of 3 failed"))
        #expect(
            !FileManager.default.fileExists(atPath: server.root.file("a"))
                && !FileManager.default.fileExists(atPath: server.root.file("b")))
    }

    @Test func usageErrorsSuggestTheNearestSpelling() async throws {
        let command = try await cli.run(["lst"])
        #expect(command.status == 2 && command.stderr.contains("did you mean 'officer-files ls'?"))
        let option = try await cli.run(["ls", "--recursiv"])
        #expect(option.status == 2 && option.stderr.contains("did you mean '--recursive'?"))
        let missing = try await cli.run(["mv", "/a"])
        #expect(missing.status == 2 && missing.stderr.contains("needs DEST"))
        let bare = try await cli.run([])
        #expect(bare.status == 2 && bare.stdout.contains("Commands:"))
        let help = try await cli.run(["help", "ls"])
        #expect(help.status == 0 && help.stdout.contains("Usage: officer-files ls [OPTIONS] [PATH...]"))
        let dashHelp = try await cli.run(["mkdir", "--help"])
        #expect(dashHelp.status == 0 && dashHelp.stdout.contains("-p, --parents"))
        let helpUnknown = try await cli.run(["help", "lss"])
        #expect(helpUnknown.status == 2 && helpUnknown.stderr.contains("did you mean"))
        let version = try await cli.run(["--version"])
        #expect(
            version.status == 0 && version.stdout.hasPrefix("officer-files 0.") && version.stdout.contains("libcurl/"))
        // No config at all is "not signed in" (3), for whoami as for ls: the README's code, not a usage error.
        for command in [["ls"], ["whoami"]] {
            let noServer = try await cli.run(command)
            #expect(
                noServer.status == 3 && noServer.stderr.contains("no server"),
                "\(command): \(noServer.status) \(noServer.stderr)")
        }
    }

    @Test func tokenNeverAppearsEvenVerbose() async throws {
        #expect(try await cli.login(server).status == 0)
        let secret = try token()
        let verbose = try await cli.run(["-v", "ls", "-l"])
        let mkdir = try await cli.run(["mkdir", "/x", "--verbose", "--json"])
        let failing = try await cli.run(["-v", "stat", "/missing"])
        #expect(verbose.status == 0 && verbose.stderr.contains("> GET ") && verbose.stderr.contains("[REDACTED]"))
        for output in [verbose, mkdir, failing] {
            #expect(!output.stdout.contains(secret) && !output.stderr.contains(secret))
        }
    }

    @Test func environmentOverridesTheConfig() async throws {
        #expect(try await cli.login(server).status == 0)
        let secret = try token()
        let other = CLIRunner(environment: ["OFFICER_SERVER": server.url, "OFFICER_TOKEN": secret])
        let result = try await other.run(["whoami"])
        #expect(result.status == 0 && result.stdout.hasPrefix(server.email))
        // A saved token is only ever sent to the server that issued it.
        let elsewhere = try await cli.run(["whoami", "--server", "http://localhost:\(server.service.port)"])
        #expect(elsewhere.status == 3 && elsewhere.stderr.contains("not logged in"))
    }

    @Test func theDemoShowsTheWholeMission() async throws {
        let demo = try await ProcessRunner.runDetached(
            ProcessRunner.packageRoot + "/scripts/demo", [], environment: ProcessInfo.processInfo.environment,
            stdin: nil,
            currentDirectory: nil)
        #expect(demo.status == 0, "\(demo.stdout.suffix(2000))\(demo.stderr.suffix(2000))")
        for line in [
            "Transferred 13 files", "Transferred 1 file", "Transferred 0 files", "resumed after", "IMG_0001.jpg",
            "warning: bomb",
            "warning: parent-traversal", "Invoice 2026-117", "notes.wav", "offline: officer:/Documents",
            "(exit code 4)",
        ] {
            #expect(demo.stdout.contains(line) || demo.stderr.contains(line), "\(line)")
        }
    }

    @Test func expiredTokenAsksForANewLogin() async throws {
        let shortLived = try await ReferenceServer.start(arguments: ["--token-ttl", "60", "--test-clock"])
        #expect(try await cli.login(shortLived).status == 0)
        try await shortLived.advanceClock(by: 61)
        let result = try await cli.run(["ls"])
        #expect(
            result.status == 3
                && result.stderr.contains(
                    "your session has expired; log in again with: officer-files login --server \(shortLived.url) --email \(shortLived.email)"
                ), "\(result.stderr)")
        // The command printed works exactly as printed (the password from stdin here).
        let again = try await cli.run(
            ["login", "--server", shortLived.url, "--email", shortLived.email, "--password-stdin"],
            stdin: shortLived.password + "\n")
        #expect(again.status == 0, "\(again.stderr)")
    }

    @Test func aReadableConfigIsRefused() async throws {
        #expect(try await cli.login(server).status == 0)
        chmod(cli.configPath, 0o644)
        let result = try await cli.run(["ls"])
        #expect(result.status == 8 && result.stderr.contains("chmod 600"))
    }
}

import Foundation
import TestSupport
import Testing

/// Every failure a new user met speaks in the user's terms (docs/CLI.md): one line naming the location or the
/// server as written, the way forward where there is one, and no request URL, libcurl code, library name or
/// temporary file name.
@Suite struct OneVoiceTests {
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "one-voice", inMemory: true)
    /// A token of the right form that no server issued: it reaches the network, and the server refuses it.
    let strangerToken = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"

    /// The one line of stderr, after checking it is one line and shows nothing technical.
    func line(_ result: ProcessResult, _ command: [String], sourceLocation: SourceLocation = #_sourceLocation) -> String
    {
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(
            lines.count == 1, "\(command): one line, not \(lines.count): \(result.stderr)",
            sourceLocation: sourceLocation)
        for technical in [
            "curl error", "/api/", "Vips", "libvips", ".officer-download", "No such file or directory", "(null)",
        ] {
            #expect(
                !result.stderr.contains(technical), "\(command): shows \(technical): \(result.stderr)",
                sourceLocation: sourceLocation)
        }
        #expect(result.status != 0, "\(command) failed, so it exits non-zero", sourceLocation: sourceLocation)
        return lines.first.map(String.init) ?? ""
    }

    func fails(
        _ command: [String], status: Int32, says expected: String, stdin: String? = nil,
        environment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let result = try await cli.run(command, stdin: stdin, environment: environment, in: work.path)
        let text = line(result, command, sourceLocation: sourceLocation)
        #expect(result.status == status, "\(command): exit \(result.status): \(text)", sourceLocation: sourceLocation)
        #expect(text == "officer-files: " + expected, "\(command): \(text)", sourceLocation: sourceLocation)
        return text
    }

    @Test func failuresOnAnOfficerServerNameWhatTheUserWrote() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        try FileManager.default.createDirectory(
            atPath: server.root.file("Documents/F"), withIntermediateDirectories: true)
        _ = try server.root.write("Documents/notes.md", "# notes\n")
        #expect(try await cli.login(server).status == 0)
        let port = String(server.url.split(separator: ":").last!)

        _ = try await fails(
            ["ls", "--server", "http://127.0.0.1:1", "/"], status: 6,
            says: "cannot reach http://127.0.0.1:1 (connection refused)",
            environment: ["OFFICER_TOKEN": strangerToken])
        _ = try await fails(
            ["ls", "--server", "https://127.0.0.1:\(port)", "/"], status: 6,
            says: "the server at https://127.0.0.1:\(port) does not speak https (the secure handshake failed)",
            environment: ["OFFICER_TOKEN": strangerToken])
        _ = try await fails(["--offline", "mkdir", "/x"], status: 9, says: "officer:/x: needs the server (offline)")
        _ = try await fails(["ls", "/nope"], status: 4, says: "officer:/nope: no such file or folder")
        _ = try await fails(["rm", "officer:/nope"], status: 4, says: "officer:/nope: no such file or folder")
        _ = try await fails(
            ["mkdir", "/x/y/z"], status: 4,
            says: "officer:/x/y/z: parent folder does not exist (-p creates the missing folders)")
        #expect(try await cli.run(["mkdir", "-p", "/x/y/z"]).status == 0, "the option named works as printed")
        // A file above it: said so, with no -p to suggest (it would not create it either).
        _ = try await fails(
            ["mkdir", "/Documents/notes.md/a/b"], status: 5,
            says: "officer:/Documents/notes.md/a/b: a parent is a file (officer:/Documents/notes.md)")
        _ = try await fails(
            ["get", "officer:/Documents/notes.md", "sub/notes.md"], status: 8, says: "sub/: no such folder"
        )
        _ = try work.write("afile", "a file, not a folder\n")
        _ = try await fails(
            ["get", "officer:/Documents/notes.md", "afile/"], status: 8,
            says: "afile: is a file, not a folder"
        )
        _ = try await fails(
            ["get", "officer:/Documents"], status: 9,
            says:
                "officer:/Documents: is a folder (get --zip saves a folder as one zip file; sync copies it file by file)"
        )
        let folder = work.file("F")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = try work.write("F/inside.txt", "x")
        let file = try work.write("plain/F", "a file named like the server's folder\n")
        _ = try await fails(
            ["put", "--force", file, "officer:/Documents/"], status: 5,
            says: "officer:/Documents/F: already exists (a folder is never replaced, even with --force)")
        #expect(FileManager.default.fileExists(atPath: server.root.file("Documents/F")), "the folder is still there")
        _ = try await fails(
            ["ls", "/"], status: 3,
            says:
                "\(server.url): the server does not accept the token in OFFICER_TOKEN; set a valid one, or unset OFFICER_TOKEN to use the one from login",
            environment: ["OFFICER_TOKEN": strangerToken])
        _ = try await fails(["jobs", "wait", "nonexistent"], status: 4, says: "job nonexistent: no such job")
        let oddName = try work.write("odd/new\nline.txt", "x")
        _ = try await fails(
            ["put", oddName, "officer:/Documents/"], status: 2,
            says:
                "\(work.path)/odd/new\\nline.txt: its name cannot be stored on the server (a control character in the name); rename it"
        )
        // The password in a URL is never echoed, whoever quotes it.
        let fetch = try await cli.run(["fetch", "http://ann:hunter2@127.0.0.1:\(port)/x", "officer:/Documents"])
        #expect(
            fetch.status != 0 && !fetch.stderr.contains("hunter2") && fetch.stderr.contains("REDACTED"),
            "\(fetch.stderr)")

        // A page's URL instead of the server's: the server is named, and the command suggested works as printed.
        let wrong = try await fails(
            ["login", "--server", server.url + "/api", "--email", server.email, "--password-stdin"], status: 7,
            says:
                "no Officer server at \(server.url)/api; the Officer server is at \(server.url); log in with: officer-files login --server \(server.url) --email \(server.email)",
            stdin: server.password + "\n")
        let suggested = wrong.components(separatedBy: "log in with: officer-files ").last!.split(separator: " ").map(
            String.init)
        let again = try await cli.run(suggested + ["--password-stdin"], stdin: server.password + "\n")
        #expect(again.status == 0, "\(suggested): \(again.stderr)")
    }

    @Test func aTricklingServerAndAFolderPinnedAreNamedByTheirPaths() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        _ = try server.root.write("big.bin", Data(repeating: 7, count: 300_000))
        try FileManager.default.createDirectory(atPath: server.root.file("Folder"), withIntermediateDirectories: true)
        #expect(try await cli.login(server).status == 0)
        _ = try await fails(
            ["cache", "pin", "officer:/Folder"], status: 9, says: "officer:/Folder: is a folder")
        let proxy = try await startFaultProxy(target: "127.0.0.1:\(server.service.port)", ["--throttle", "300"])
        let token = try cli.savedToken()
        _ = try await fails(
            [
                "get", "--no-progress", "--server", proxy.url, "--speed-limit", "1K", "--speed-time", "1",
                "officer:/big.bin", work.file("big.bin"),
            ],
            status: 6, says: "officer:/big.bin: slower than 1.00 KiB/s for 1 s; gave up",
            environment: ["OFFICER_TOKEN": token])
        #expect(!FileManager.default.fileExists(atPath: work.file("big.bin")))
    }

    @Test func anObjectStorePathWithNoPossibleBucketIsRefusedBeforeAnyRequest() async throws {
        let added = try await cli.run(
            [
                "remote", "add", "st", "--s3", "--endpoint", "http://127.0.0.1:1", "--access-key", "k",
                "--secret-stdin", "--no-check",
            ],
            stdin: "secret\n")
        #expect(added.status == 0, "\(added.stderr)")
        for command in [
            ["ls", "st:b"], ["mkdir", "st:b"], ["put", try work.write("a.txt", "a"), "st:Bad Bucket/a.txt"],
            // An old store's name, listed as it is, but none a new bucket can have.
            ["mkdir", "st:Bad_Name"],
        ] {
            let bucket = command.last!.dropFirst(3).split(separator: "/").first.map(String.init) ?? ""
            _ = try await fails(
                command, status: 2,
                says:
                    "\(command.last!): \"\(bucket)\" is not a bucket name (3 to 63 letters, digits, '-' and '.')"
            )
        }
    }

    /// A name is shown one way on a line, escaped as every printed name is (before, a sync's failure named the
    /// file `esc\u001b…` and then `"esc\u{1B}…"`, Swift's form); a queued change and a suggested command are
    /// words a shell reads back (`it's` broke the quotes around them).
    @Test func aNameIsShownOneWayAndQueuedCommandsAreShellWords() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        defer { server.service.stop() }
        #expect(try await cli.login(server).status == 0)
        _ = try work.write("names/esc\u{1B}[31mred.txt", "red\n")
        _ = try work.write("names/plain.txt", "plain\n")
        let sync = try await cli.run(["sync", work.file("names"), "officer:/names"])
        let failure = sync.stderr.split(separator: "\n").first { $0.contains("red.txt") }.map(String.init) ?? ""
        #expect(
            failure.contains("esc\\u001b[31mred.txt: upload: invalid file name \"esc\\u001b[31mred.txt\"")
                && !failure.contains("u{1B}"), "\(sync.stderr)")

        _ = try server.root.write("it's.txt", "quoted\n")
        #expect(try await cli.run(["ls", "officer:/"]).status == 0)
        let queued = try await cli.run(["--offline", "rm", "--queue", "officer:/it's.txt"])
        #expect(queued.stderr.contains(#"rm 'officer:/it'\''s.txt'"#), "\(queued.stderr)")
        let again = try await cli.run(["--offline", "mv", "--queue", "officer:/it's.txt", "officer:/b.txt"])
        #expect(again.stderr.contains(#"the queue already holds `rm 'officer:/it'\''s.txt'`"#), "\(again.stderr)")
        // The queued line is a command a shell runs as printed.
        let listed = try await cli.run(["queue", "list"])
        let command = try #require(listed.stdout.split(separator: "\n").first?.components(separatedBy: "  ").last)
        let echoed = try await ProcessRunner.runDetached("/bin/bash", ["-c", "printf '%s|' " + command])
        #expect(echoed.stdout == "rm|officer:/it's.txt|", "\(command) -> \(echoed.stdout)")

        // A server's name with a control character is named as listed (it was the root's top: `"path":"officer:/"`,
        // and a pattern matching it named the top: "refusing to remove the top of officer:/"); acting on it is
        // refused by the name rule, naming it.
        _ = try server.root.write("odd/e\u{1B}x.txt", "odd\n")
        let json = try await cli.run(["--json", "ls", "officer:/odd"])
        #expect(json.stdout.contains(#""path":"officer:/odd/e\u001bx.txt""#), "\(json.stdout)")
        let removed = try await cli.run(["rm", "officer:/odd/e*"])
        #expect(
            removed.status == 2 && removed.stderr.contains(#"/odd/e\u001bx.txt" contains a control character"#),
            "\(removed.stderr)")
        #expect(FileManager.default.fileExists(atPath: server.root.file("odd/e\u{1B}x.txt")))
    }

    @Test func subcommandTyposSuggestTheCommandMeant() async throws {
        _ = try await fails(
            ["remote", "rm", "x"], status: 2,
            says:
                "unknown command 'rm'; did you mean 'officer-files remote remove'? (see 'officer-files remote --help')")
        _ = try await fails(
            ["lss"], status: 2,
            says: "unknown command 'lss'; did you mean 'officer-files ls'? (see 'officer-files --help')")
    }

    /// A download that cannot be written names the file asked for, never its hidden temp name (it said
    /// "/proc/.notes.md.officer-download: Permission denied").
    @Test func aDownloadThatCannotBeWrittenNamesTheFileAskedFor() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        #expect(try await cli.login(server).status == 0)
        _ = try server.root.write("notes.md", "notes\n")
        let result = try await cli.run(["get", "officer:/notes.md", "/proc/"])
        #expect(
            result.status == 8 && result.stderr.contains("/proc/notes.md")
                && !result.stderr.contains("officer-download"),
            "\(result.stderr)")
    }

    /// One vocabulary: a folder is a "folder" in `stat` too, `info` and `stat` show permissions alike, a viewer is
    /// not named twice, a `tts` result that exists says how to replace it, a folder without pictures is said to be
    /// one, a cache limit of 0 shows no share of it.
    @Test func oneVocabularyAcrossCommands() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        #expect(try await cli.login(server).status == 0)
        _ = try server.root.write("Docs/readme.md", "# readme\n")
        let stat = try await cli.run(["stat", "officer:/Docs"])
        #expect(stat.stdout.contains("Type: folder") && !stat.stdout.contains("directory"), "\(stat.stdout)")
        let markdown = try work.write("notes.md", "# notes\n")
        let info = try await cli.run(["info", markdown])
        #expect(info.stdout.contains("Mode: -rw-") && info.stdout.contains("(6"), "\(info.stdout)")
        #expect(!info.stdout.contains("markdown (markdown)"), "\(info.stdout)")
        try FileManager.default.createDirectory(atPath: work.file("audio"), withIntermediateDirectories: true)
        #expect(try await cli.run(["tts", markdown, "-o", work.file("audio/")]).status == 0)
        let again = try await cli.run(["tts", markdown, "-o", work.file("audio/")])
        #expect(again.status == 5 && again.stderr.contains("use --force to replace it"), "\(again.stderr)")
        let thumbs = try await cli.run(["thumb", "-o", work.file("thumbs/"), "officer:/Docs/"])
        #expect(thumbs.status == 4 && thumbs.stderr.contains("no pictures"), "\(thumbs.stderr)")
        let stats = try await cli.run(["--cache-limit", "0", "cache", "stats"])
        #expect(stats.status == 0 && !stats.stdout.contains("%"), "\(stats.stdout)\(stats.stderr)")
    }

    @Test func imagesAndLocalFilesAreNamedWithoutTheLibraries() async throws {
        let text = try work.write("x.jpg", "not an image at all\n")
        _ = try await fails(["thumb", text], status: 8, says: "\(text): not an image officer-files reads")
        let whole = work.file("whole.jpg")
        #expect(try ProcessRunner.run("/usr/bin/vips", ["gaussnoise", whole + "[Q=90]", "800", "600"]).status == 0)
        let truncated = try work.write("cut.jpg", try Data(contentsOf: URL(fileURLWithPath: whole)).prefix(3000))
        _ = try await fails(["thumb", truncated], status: 8, says: "\(truncated): damaged or truncated JPEG")
        _ = try await fails(
            ["image", "prepare", truncated, work.file("out.jpg")], status: 9,
            says: "\(truncated): damaged or truncated JPEG")
        #expect(!FileManager.default.fileExists(atPath: work.file("out.jpg")))
        _ = try await fails(
            ["info", "/nonexistent/file.txt"], status: 8, says: "/nonexistent/file.txt: no such file or folder")
    }

    @Test func anUntrustedCertificateSaysHowToTrustItAndLoginRemembersTheAnswer() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        let nginx = try await NginxServer.start(tls: true, directives: "location / { proxy_pass \(server.url); }")
        let login = ["login", "--server", nginx.url, "--email", server.email, "--password-stdin"]
        _ = try await fails(
            login, status: 6,
            says:
                "\(nginx.url): its certificate is not trusted (self-signed certificate); pass --cacert FILE (the certificate that signed it; login remembers it) or --insecure",
            stdin: server.password + "\n")
        let trusted = try await cli.run(["--cacert", nginx.certificate!] + login, stdin: server.password + "\n")
        #expect(trusted.status == 0, "\(trusted.stderr)")
        _ = try server.root.write("hello.txt", "hi\n")
        let later = try await cli.run(["cat", "officer:/hello.txt"])
        #expect(
            later.status == 0 && later.stdout == "hi\n",
            "the certificate given to login is trusted after it: \(later.stderr)")
    }
}

/// A wrong `--server` is told as `login` tells it, whatever the command: one rule (every command said "not logged
/// in; log in again", exit 3, while `login` named the real problem).
@Suite struct WrongServerTests {
    @Test func aWrongServerIsNamedAsLoginNamesIt() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        let nginx = try await NginxServer.start()
        let cli = CLIRunner()
        #expect(try await cli.login(server).status == 0)
        let https = server.url.replacingOccurrences(of: "http://", with: "https://")
        for (url, status, words) in [
            (https, Int32(6), "does not speak https"),
            (server.url + "/api", 7, "the Officer server is at \(server.url)"),
            (nginx.url, 7, "no Officer server at \(nginx.url)"),
        ] {
            for command in [["ls", "officer:/"], ["get", "officer:/x.txt", "/tmp/never-written.txt"]] {
                let result = try await cli.run(["--server", url] + command)
                #expect(
                    result.status == status && result.stderr.contains(words) && !result.stderr.contains("log in again"),
                    "\(url) \(command): \(result.status) \(result.stderr)")
            }
        }
        // A real server without a token is still "not logged in".
        let other = try await ReferenceServer.start(inMemory: true)
        let plain = try await cli.run(["--server", other.url, "ls", "officer:/"])
        #expect(plain.status == 3 && plain.stderr.contains("not logged in"), "\(plain.stderr)")
    }
}

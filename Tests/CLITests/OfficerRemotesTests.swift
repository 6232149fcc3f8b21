import FileModel
import Foundation
import TestSupport
import Testing

/// Several Officer servers as named remotes (home and work): each with its own token, every command on either,
/// and sync between them.
@Suite struct OfficerRemotesTests {
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "officer-remotes", inMemory: true)

    /// A default server signed in to, and a second one (started with `workArguments`) as the remote `work`, signed
    /// in to, holding `bundle.zip` (docs/readme.txt).
    func homeAndWork(workArguments: [String]) async throws -> (home: ReferenceServer, work: ReferenceServer) {
        let home = try await ReferenceServer.start(inMemory: true)
        let office = try await ReferenceServer.start(arguments: workArguments, inMemory: true)
        #expect(try await cli.login(home).status == 0)
        #expect(try await cli.run(["remote", "add", "work", "--officer", office.url]).status == 0)
        let login = try await cli.run(
            ["login", "work", "--email", office.email, "--password-stdin"], stdin: office.password + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        _ = try work.write("src/docs/readme.txt", "hello\n")
        let zipped = try await ProcessRunner.runDetached(
            "/usr/bin/bsdtar", ["-a", "-cf", office.root.file("bundle.zip"), "docs"], currentDirectory: work.file("src")
        )
        try #require(zipped.status == 0, "\(zipped.stderr)")
        return (home, office)
    }

    /// A server job on a named remote names its places there, in words and in JSON: never `officer:`.
    @Test func aJobOnANamedRemoteNamesItsPlacesThere() async throws {
        let (home, office) = try await homeAndWork(workArguments: ["--api", "seed"])

        let text = try await cli.run(["extract", "--wait", "work:/bundle.zip"])
        #expect(
            text.status == 0 && text.stdout.contains("Extracted 2 entries into work:/bundle"),
            "\(text.stdout)\(text.stderr)")
        #expect(!text.stdout.contains("officer:") && !text.stderr.contains("officer:/"), "\(text.stdout)\(text.stderr)")
        let json = try await cli.run(["--json", "extract", "--wait", "work:/bundle.zip", "work:/again"])
        #expect(json.status == 0, "\(json.stderr)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(
            record["path"] as? String == "work:/bundle.zip" && record["made"] as? [String] == ["work:/again"],
            "\(json.stdout)")
        #expect(FileManager.default.fileExists(atPath: office.root.file("bundle/docs/readme.txt")))
        #expect(FileManager.default.fileExists(atPath: office.root.file("again/docs/readme.txt")))
        #expect(!FileManager.default.fileExists(atPath: home.root.file("bundle")))
    }

    /// A job started on a named remote is followed there (the printed `jobs wait` works as printed), and an AI
    /// action on a named remote's file runs on that server, never on the default one.
    @Test func jobsAndActionsOnANamedRemoteRunThere() async throws {
        // Every piece of work there answers as a job (202), however quick.
        let (home, office) = try await homeAndWork(workArguments: ["--async-after", "0"])

        let detached = try await cli.run(["extract", "--detach", "work:/bundle.zip"])
        #expect(detached.status == 0, "\(detached.stderr)")
        let id = detached.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(detached.stderr.contains("officer-files jobs wait --remote work \(id)"), "\(detached.stderr)")
        let waited = try await cli.run(["jobs", "wait", "--remote", "work", id])
        #expect(waited.status == 0 && waited.stderr.contains("work:/bundle"), "\(waited.stdout)\(waited.stderr)")
        #expect(FileManager.default.fileExists(atPath: office.root.file("bundle/docs/readme.txt")))
        let listed = try await cli.run(["jobs", "list", "--remote", "work"])
        #expect(listed.status == 0 && listed.stdout.contains(id), "\(listed.stdout)\(listed.stderr)")
        // The default server has no such job.
        let elsewhere = try await cli.run(["jobs", "wait", id])
        #expect(elsewhere.status != 0, "\(elsewhere.stdout)")

        let image = work.file("hello.png")
        let rendered = try await ProcessRunner.runDetached(
            "/usr/bin/convert",
            [
                "-size", "900x200", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "56", "-fill", "black",
                "-annotate", "+20+120", "Hello Officer World", image,
            ])
        try #require(rendered.status == 0, "\(rendered.stderr)")
        try FileManager.default.copyItem(atPath: image, toPath: office.root.file("scan.png"))
        let read = try await cli.run(["ocr", "work:/scan.png"])
        #expect(read.status == 0 && read.stdout == "Hello Officer World\n", "\(read.stdout)\(read.stderr)")
        let onHome = try await cli.run(["ocr", "officer:/scan.png"])
        #expect(onHome.status == 4, "the default server has no scan.png: \(onHome.status) \(onHome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.root.file("bundle")))
    }

    @Test func twoServersByNameWithTheirOwnTokens() async throws {
        let home = try await ReferenceServer.start(inMemory: true)
        // The second one answers only the seed's endpoints: each server's offers are its own.
        let office = try await ReferenceServer.start(arguments: ["--api", "seed"], inMemory: true)
        #expect(try await cli.login(home).status == 0)
        let added = try await cli.run(["remote", "add", "work", "--officer", office.url])
        #expect(added.status == 0, "\(added.stderr)")
        // Not signed in to it yet: the hint names it, and works as printed.
        let before = try await cli.run(["ls", "work:/"])
        #expect(before.status == 3, "\(before.stderr)")
        #expect(before.stderr.contains("officer-files login work --email"), "\(before.stderr)")
        let login = try await cli.run(
            ["login", "work", "--email", office.email, "--password-stdin"], stdin: office.password + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        let whoami = try await cli.run(["whoami", "work"])
        #expect(whoami.stdout.contains(office.url), "\(whoami.stdout)")
        let defaultWhoami = try await cli.run(["whoami"])
        #expect(defaultWhoami.stdout.contains(home.url), "the default server stays: \(defaultWhoami.stdout)")

        // Every file command on the named one, nothing on the default.
        let notes = try work.write("notes.txt", "for the office\n")
        #expect(try await cli.run(["mkdir", "work:/docs"]).status == 0)
        let put = try await cli.run(["put", notes, "work:/docs"])
        #expect(put.status == 0, "\(put.stderr)")
        #expect(try String(contentsOfFile: office.root.file("docs/notes.txt"), encoding: .utf8) == "for the office\n")
        #expect(!FileManager.default.fileExists(atPath: home.root.file("docs")))
        let listing = try await cli.run(["ls", "-l", "work:/docs"])
        #expect(listing.status == 0 && listing.stdout.contains("notes.txt"), "\(listing.stderr)")
        let stat = try await cli.run(["stat", "work:/docs/notes.txt"])
        #expect(
            stat.status == 0 && stat.stdout.contains("work:/docs/notes.txt"),
            "named in the user's terms: \(stat.stdout)")
        let cat = try await cli.run(["cat", "work:/docs/notes.txt"])
        #expect(cat.stdout == "for the office\n", "\(cat.stderr)")
        let got = work.file("got.txt")
        #expect(try await cli.run(["get", "work:/docs/notes.txt", got]).status == 0)
        #expect(try String(contentsOfFile: got, encoding: .utf8) == "for the office\n")
        let missing = try await cli.run(["stat", "work:/docs/nothing.txt"])
        #expect(missing.status == 4 && missing.stderr.contains("work:/docs/nothing.txt"), "\(missing.stderr)")

        // A name that is no remote (a typo, a removed one) is refused, never taken as a folder called "wrk:".
        for command in [
            ["mkdir", "-p", "wrk:/x"], ["ls", "wrk:/"], ["put", notes, "wrk:/"], ["sync", work.path, "wrk:/x"],
        ] {
            let typo = try await cli.run(command)
            #expect(
                typo.status == 2 && typo.stderr.contains("wrk: no such remote (did you mean work?)"),
                "\(command): \(typo.stderr)")
        }
        #expect(
            !FileManager.default.fileExists(atPath: home.root.file("wrk:"))
                && !FileManager.default.fileExists(atPath: work.file("wrk:")))
        // A file written as a folder (a trailing slash) is not one: nothing is done to it.
        for command in [
            ["rm", "work:/docs/notes.txt/"], ["cat", "work:/docs/notes.txt/"], ["stat", "work:/docs/notes.txt/"],
            ["mv", "work:/docs/notes.txt/", "work:/n.txt"],
        ] {
            let slash = try await cli.run(command)
            #expect(
                slash.status == 5 && slash.stderr.contains("work:/docs/notes.txt: is a file, not a folder"),
                "\(command): \(slash.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: office.root.file("docs/notes.txt")))
        // A missing file is named as typed, not by the request's URL.
        let gone = try await cli.run(["cat", "work:/docs/nope.txt"])
        #expect(
            gone.status == 4 && gone.stderr.contains("work:/docs/nope.txt: no such file or folder")
                && !gone.stderr.contains("http"), "\(gone.stderr)")

        // One server per command, in one line; sync goes between servers, both ways, and a rerun plans nothing.
        // A plain path beside a work: path is on the default server: two servers, refused, nothing removed.
        let plain = try await cli.run(["rm", "work:/docs/notes.txt", "/docs"])
        #expect(plain.status == 2 && plain.stderr.contains("different Officer servers"), "\(plain.stderr)")
        #expect(FileManager.default.fileExists(atPath: office.root.file("docs/notes.txt")))
        // A named remote's changes are not queued (the queue replays on the default server).
        let queued = try await cli.run(["--offline", "mkdir", "--queue", "work:/later"])
        #expect(
            queued.status == 2 && queued.stderr.contains("--queue works on the default server's paths"),
            "\(queued.stderr)")
        let mixed = try await cli.run(["cp", "officer:/a", "work:/b"])
        let acrossRemotes = try await cli.run(["sync", "work:/docs", "officer:/docs-copy", "--dry-run"])
        #expect(acrossRemotes.status == 0, "sync is the way between servers: \(acrossRemotes.stderr)")
        #expect(mixed.status == 2 && mixed.stderr.contains("different Officer servers"), "\(mixed.stderr)")
        let tree = work.file("tree")
        try FileManager.default.createDirectory(atPath: tree + "/sub", withIntermediateDirectories: true)
        _ = try work.write("tree/one.txt", "one\n")
        _ = try work.write("tree/sub/two.txt", "two\n")
        #expect(try await cli.run(["sync", tree, "officer:/tree"]).status == 0)
        let across = try await cli.run(["sync", "officer:/tree", "work:/tree"])
        #expect(across.status == 0, "\(across.stderr)")
        #expect(try String(contentsOfFile: office.root.file("tree/sub/two.txt"), encoding: .utf8) == "two\n")
        let again = try await cli.run(["sync", "--json", "officer:/tree", "work:/tree"])
        // (tree/three.txt is added below; before it, the rerun plans nothing.)
        #expect(again.status == 0 && again.stdout.contains("\"transferred\":0"), "\(again.stdout)\(again.stderr)")
        // A sync's writes never leave a cached listing stale: offline, the folder shows what is there or is not cached.
        #expect(try await cli.run(["ls", "officer:/tree"]).status == 0)
        _ = try work.write("tree/three.txt", "three\n")
        #expect(try await cli.run(["sync", tree, "officer:/tree"]).status == 0)
        let cached = try await cli.run(["--offline", "ls", "officer:/tree"])
        #expect(
            cached.stdout.contains("three.txt") || cached.stderr.contains("not in the cache"),
            "\(cached.stdout)\(cached.stderr)")
        let back = try await cli.run(["sync", "work:/docs", "officer:/from-work"])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(
            try String(contentsOfFile: home.root.file("from-work/notes.txt"), encoding: .utf8) == "for the office\n")

        // Signing out of one keeps the other.
        #expect(try await cli.run(["logout", "work"]).status == 0)
        #expect(try await cli.run(["ls", "work:/"]).status == 3)
        #expect(try await cli.run(["ls", "officer:/"]).status == 0)
        let list = try await cli.run(["remote", "list"])
        #expect(list.stdout.contains("work: officer \(office.url) (not logged in)"), "\(list.stdout)")
        // The default server is a remote too, listed first as --json lists it (the human list left it out).
        #expect(list.stdout.hasPrefix("officer: officer "), "\(list.stdout)")
    }
}

import Foundation
import OfficerFilesCLI
import TestSupport
import Testing

/// The file commands run in this process over a remote held in memory: no server, no subprocess. What they
/// do there is the library's rules through the seam (placement as cp's, several files into a folder, `-p`,
/// never over a file without `--force`, a folder removed only with `-r`), which is what every remote gets.
@Suite struct CommandsOverAFakeRemoteTests {
    let work = TemporaryDirectory()
    let home = CLIRunner()
    let remote = MemoryRemote(name: "mem")

    /// One run's exit status, output and messages.
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `officer-files ARGUMENTS` here, its output and messages caught in files.
    func run(_ arguments: [String]) async throws -> Outcome {
        let (out, err) = (work.file("out-\(UUID().uuidString)"), work.file("err-\(UUID().uuidString)"))
        let outFD = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let errFD = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer {
            close(outFD)
            close(errFD)
        }
        let environment = home.environment()
        let status = await OfficerFilesApp.run(
            arguments: arguments, environment: environment,
            console: Console(environment: environment, outputFD: outFD, errorFD: errFD), remotes: ["mem": remote],
            catchesInterrupt: false)
        return Outcome(
            status: status, stdout: try String(contentsOfFile: out, encoding: .utf8),
            stderr: try String(contentsOfFile: err, encoding: .utf8))
    }

    /// A remote with only the ordinary operations (list, read, write, make folders, remove) is synced with no code
    /// of its own: the sync's view of it is derived from them. A push with `--delete`, then a pull back.
    @Test func aRemoteWithOnlyTheOrdinaryOperationsIsSynced() async throws {
        remote.seed("box/old.txt", "not in the source\n")
        let tree = work.file("tree")
        _ = try work.write("tree/a.txt", "a\n")
        _ = try work.write("tree/sub/b.txt", "bb\n")
        let push = try await run(["sync", "--delete", tree, "mem:box"])
        #expect(push.status == 0, "\(push.stderr)")
        #expect(remote.files["box/a.txt"] == Data("a\n".utf8))
        #expect(remote.files["box/sub/b.txt"] == Data("bb\n".utf8))
        #expect(remote.files["box/old.txt"] == nil, "deleted: the source lacks it")

        let back = work.file("back")
        let pull = try await run(["sync", "mem:box", back])
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(try String(contentsOfFile: back + "/a.txt", encoding: .utf8) == "a\n")
        #expect(try String(contentsOfFile: back + "/sub/b.txt", encoding: .utf8) == "bb\n")
    }

    @Test func fileCommandsKeepTheRulesOnAnyRemote() async throws {
        remote.seed("box/readme.txt", "read me\n")
        let local = try work.write("local.txt", "from here\n")
        let other = try work.write("other.txt", "other\n")

        let noFolder = try await run(["put", local, "mem:box/in/"])
        #expect(noFolder.status == 4 && noFolder.stderr.contains("no such folder"), "\(noFolder.stderr)")
        let made = try await run(["put", "-p", local, other, "mem:box/in/"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(remote.files["box/in/local.txt"] == Data("from here\n".utf8))
        #expect(try await run(["ls", "mem:box/in"]).stdout == "local.txt\nother.txt\n")
        let again = try await run(["put", local, "mem:box/in/"])
        #expect(again.status == 5, "never over a file without --force: \(again.stderr)")
        let several = try await run(["put", local, other, "mem:box/new.txt"])
        #expect(
            several.status == 2 && several.stderr.contains("must be an existing folder or end with /"),
            "\(several.stderr)")

        #expect(try await run(["cp", "mem:box/readme.txt", "mem:box/in"]).status == 0)
        #expect(remote.files["box/in/readme.txt"] == Data("read me\n".utf8), "into the folder, by its name")
        // A destination variable with no value: refused as such, nothing moved to the top of the remote.
        let unset = try await run(["mv", "mem:box/in/other.txt", ""])
        #expect(
            unset.status == 2
                && unset.stderr == "officer-files: 'officer-files mv' got an empty DEST: nothing was done\n",
            "\(unset.stderr)")
        #expect(remote.files["box/in/other.txt"] != nil)
        let moved = try await run(["mv", "-p", "mem:box/in/other.txt", "mem:box/done/"])
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(remote.files["box/done/other.txt"] != nil && remote.files["box/in/other.txt"] == nil)
        let across = try await run(["cp", "mem:box/readme.txt", "officer:/readme.txt"])
        #expect(across.status == 9 && across.stderr.contains("sync copies between them"), "\(across.stderr)")
        let queued = try await run(["mkdir", "--queue", "mem:box/later"])
        #expect(queued.status == 2 && queued.stderr.contains("only an Officer server's changes"), "\(queued.stderr)")

        let back = work.file("back.txt")
        #expect(try await run(["get", "mem:box/in/local.txt", back]).status == 0)
        #expect(try String(contentsOfFile: back, encoding: .utf8) == "from here\n")
        #expect(try await run(["cat", "mem:box/readme.txt"]).stdout == "read me\n")
        let facts = try await run(["info", "mem:box/readme.txt"])
        #expect(
            facts.status == 9
                && facts.stderr.contains("a test's in-memory remote; reading file facts is not available"),
            "\(facts.stderr)")

        let folder = try await run(["rm", "mem:box/in"])
        #expect(folder.status != 0 && remote.files["box/in/local.txt"] != nil, "\(folder.stderr)")
        #expect(try await run(["rm", "-r", "mem:box/in"]).status == 0)
        #expect(remote.files.keys.sorted() == ["box/done/other.txt", "box/readme.txt"])
    }
}

import Foundation
import TestSupport
import Testing

/// The library as an app uses it: `Examples/PhotoBackup`, a separate package that depends on this one by path and
/// uses only the front door, is built and run against the reference server; the README's library code is one of
/// its programs, word for word.
@Suite struct ExamplePackageTests {
    static let package = ProcessRunner.packageRoot + "/Examples/PhotoBackup"
    let work = TemporaryDirectory(prefix: "example-work")

    /// Builds the example package (a no-op when `make test-products` built it already; `make test` skips this
    /// suite) and returns its binaries' folder.
    func build() async throws -> String {
        var built = try await ProcessRunner.runDetached(
            "/usr/bin/env", ["swift", "build", "--package-path", Self.package])
        if built.status != 0, built.stderr.contains("cannot find") {
            // SwiftPM keeps the path dependency's file list from the example's previous build: a file added to the
            // library since is missing from the first build after it and present in the next. A real error fails both.
            built = try await ProcessRunner.runDetached(
                "/usr/bin/env", ["swift", "build", "--package-path", Self.package])
        }
        #expect(built.status == 0, "\(built.stdout)\n\(built.stderr)")
        let bin = try await ProcessRunner.runDetached(
            "/usr/bin/env", ["swift", "build", "--package-path", Self.package, "--show-bin-path"])
        return bin.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func environment(_ server: ReferenceServer) -> [String: String] {
        [
            "OFFICER_SERVER": server.url, "OFFICER_EMAIL": server.email, "OFFICER_PASSWORD": server.password,
            "HOME": work.path, "XDG_STATE_HOME": work.path + "/state", "XDG_CACHE_HOME": work.path + "/cache",
            "TMPDIR": work.path + "/", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
        ]
    }

    /// The Swift blocks of the README's "As a library" section, in order.
    static func readmeSwiftBlocks() throws -> [String] {
        let readme = try String(contentsOfFile: ProcessRunner.packageRoot + "/README.md", encoding: .utf8)
        let section = try #require(readme.range(of: "## As a library"))
        let next = readme[section.upperBound...].range(of: "\n## ")?.lowerBound ?? readme.endIndex
        var blocks: [String] = []
        var rest = readme[section.upperBound..<next]
        while let block = rest.range(of: "```swift\n"), let end = rest[block.upperBound...].range(of: "```\n") {
            blocks.append(String(rest[block.upperBound..<end.lowerBound]))
            rest = rest[end.upperBound...]
        }
        return blocks
    }

    @Test func theFolderScreenPagesOpensCancelsUploadsAndAttaches() async throws {
        let bin = try await build()
        let server = try await ReferenceServer.start()
        for index in 0..<23 { _ = try server.root.write("Screen/note-\(index).txt", "note \(index)\n") }
        let big = TestBytes.pattern(12_000_000, seed: 7)
        _ = try server.root.write("Screen/big.bin", big)
        let photo = work.file("camera.jpg")
        #expect(try ProcessRunner.run("/usr/bin/vips", ["gaussnoise", photo, "3000", "2000"]).status == 0)
        let run = try await ProcessRunner.runDetached(
            bin + "/file-browser", ["officer:/Screen", "big.bin", photo], environment: environment(server))
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        // 24 rows in pages of ten, the cursor the last name of each page.
        #expect(
            lines.filter { $0.hasPrefix("page:") } == [
                "page: 10 rows, cursor note-16.txt", "page: 20 rows, cursor note-5.txt", "page: 24 rows, cursor -",
            ], "\(lines)")
        #expect(lines.contains("cancelled: cancelled"), "\(lines)")
        let opened = try #require(lines.first { $0.hasPrefix("opened: ") })
        #expect(
            opened.hasPrefix("opened: completed, 12000000 bytes, resumed ") && !opened.hasSuffix("resumed 0"),
            "\(opened)")
        #expect(
            try ProcessRunner.sha256(of: work.file("opened/big.bin"))
                == (try ProcessRunner.sha256(of: server.root.file("Screen/big.bin"))))
        #expect(lines.contains { $0.hasPrefix("photo: officer:/Screen/camera.jpg ") }, "\(lines)")
        let width = try ProcessRunner.run(
            "/usr/bin/vipsheader", ["-f", "width", server.root.file("Screen/camera.jpg")])
        #expect(width.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2048")
        #expect(lines.contains("attachments: 1 32-digit ids"), "\(lines)")
        #expect(lines.contains("failure: officer:/Screen/no-such-folder: no such file or folder"), "\(lines)")
    }

    /// #56: a phone app's whole file life on the product `Officer` alone (the example links no Linux plug-in): it
    /// signs in, scrolls a folder a page at a time, leaves a download after its first bytes and opens it again
    /// (it continues, and lands verified), uploads a camera photo whose GPS position is gone on the server (sent at
    /// its size: no plug-in resizes), attaches it, and signs out (the server's answer after says so).
    @Test func aPhoneAppOnTheProductOfficerAloneLivesItsWholeFileLife() async throws {
        let bin = try await build()
        let server = try await ReferenceServer.start()
        for index in 0..<23 { _ = try server.root.write("Phone/note-\(index).txt", "note \(index)\n") }
        _ = try server.root.write("Phone/big.bin", TestBytes.pattern(12_000_000, seed: 13))
        // Answers come at 2 MB/s a connection, so a download left after its first bytes leaves most of it behind.
        let link = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)", ["--throttle", "2000000", "--direction", "down"])
        let photo = work.file("camera.jpg")
        #expect(try ProcessRunner.run("/usr/bin/vips", ["gaussnoise", photo, "2600", "1600"]).status == 0)
        let tagged = try ProcessRunner.run(
            "/usr/bin/exiftool",
            ["-q", "-overwrite_original", "-GPSLatitude=48.8583", "-GPSLatitudeRef=N", photo])
        #expect(tagged.status == 0, "\(tagged.stderr)")
        func position(_ path: String) throws -> String {
            try ProcessRunner.run("/usr/bin/exiftool", ["-s3", "-GPSLatitude", path]).stdout.trimmingCharacters(
                in: .whitespacesAndNewlines)
        }
        #expect(try !position(photo).isEmpty)
        var environment = environment(server)
        environment["OFFICER_SERVER"] = link.url
        let run = try await ProcessRunner.runDetached(
            bin + "/phone-app", ["officer:/Phone", "big.bin", photo], environment: environment)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "signed in: \(server.email)", "\(lines)")
        #expect(
            lines.filter { $0.hasPrefix("page:") } == ["page: 10 rows", "page: 20 rows", "page: 24 rows"], "\(lines)")
        #expect(lines.contains("left: cancelled after some bytes"), "\(lines)")
        #expect(lines.contains("opened: completed, 12000000 bytes, resumed yes"), "\(lines)")
        #expect(
            try ProcessRunner.sha256(of: work.file("opened/big.bin"))
                == (try ProcessRunner.sha256(of: server.root.file("Phone/big.bin"))))
        let stored = server.root.file("Phone/camera.jpg")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: stored)[.size] as? Int)
        #expect(lines.contains("photo: officer:/Phone/camera.jpg \(size) bytes of \(size), failure none"), "\(lines)")
        #expect(try position(stored).isEmpty, "the photo arrived with its position")
        let width = try ProcessRunner.run("/usr/bin/vipsheader", ["-f", "width", stored])
        #expect(
            width.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2600",
            "a phone without an image plug-in sends the photo at its size")
        #expect(lines.contains("attachments: 1, \(size) bytes"), "\(lines)")
        #expect(lines.contains("signed out: true, revoked on the server"), "\(lines)")
        #expect(lines.last == "after sign-out: authentication", "\(lines)")
    }

    /// #56 item 3: plug-ins an app brings, in a package outside the library's targets, are used for the work of
    /// the front door they were given to and no other: one front door's file types name every file "stamped" and
    /// its all-zero digests fail the download's SHA-256 check; another's image plug-in prepares a PNG; a third in
    /// the same process tells types its own way, downloads the same file verified and refuses the PNG.
    @Test func pluginsAnAppBringsServeTheirOwnFrontDoorAlone() async throws {
        let bin = try await build()
        let server = try await ReferenceServer.start()
        _ = try server.root.write("Plug/data.bin", Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
        let local = try work.write("notes.txt", "a note\n")
        let picture = work.file("shot.png")
        #expect(try ProcessRunner.run("/usr/bin/vips", ["black", picture, "64", "48"]).status == 0)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: picture)[.size] as? Int)
        let run = try await ProcessRunner.runDetached(
            bin + "/own-plugins", ["officer:/Plug/data.bin", local, picture], environment: environment(server))
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("digests facts: application/x-stamped"), "\(lines)")
        #expect(lines.contains("digests download: integrity"), "\(lines)")
        #expect(lines.contains("digests photo: refused"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("images facts: ") && !$0.contains("stamped") }, "\(lines)")
        #expect(lines.contains("images download: 300000 bytes checked by sha256"), "\(lines)")
        #expect(lines.contains("images photo: officer:/Plug/images/shot.png \(size) bytes"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("library facts: ") && !$0.contains("stamped") }, "\(lines)")
        #expect(lines.contains("library download: 300000 bytes checked by sha256"), "\(lines)")
        #expect(lines.contains("library photo: refused"), "\(lines)")
        #expect(FileManager.default.fileExists(atPath: server.root.file("Plug/images/shot.png")))
    }

    /// The DocC articles' code compiles as written: `docc-articles` in the example package is every Swift block of
    /// each article (`scripts/docc-snippets` makes it; the check fails when an article changed since), built with
    /// the example programs against the product `Officer` alone.
    @Test func theDocCArticlesCodeCompilesAsWritten() async throws {
        let check = try await ProcessRunner.runDetached(
            ProcessRunner.packageRoot + "/scripts/docc-snippets", ["--check"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let articles = try String(
            contentsOfFile: Self.package + "/Sources/docc-articles/Articles.swift", encoding: .utf8)
        #expect(articles.components(separatedBy: "@MainActor func ").count - 1 >= 8, "\(articles)")
        let built = try await ProcessRunner.runDetached(
            "/usr/bin/env", ["swift", "build", "--package-path", Self.package, "--target", "docc-articles"])
        #expect(built.status == 0, "\(built.stdout)\n\(built.stderr)")
    }

    @Test func theReadmeCodeIsTheExampleAndRuns() async throws {
        // Every snippet is an example program word for word, so each one compiles as written.
        let blocks = try Self.readmeSwiftBlocks()
        let programs = ["readme-example", "readme-object-store"]
        #expect(blocks.count == programs.count, "\(blocks.count) Swift blocks in the README's library section")
        for (block, program) in zip(blocks, programs) {
            let code = try String(contentsOfFile: Self.package + "/Sources/\(program)/main.swift", encoding: .utf8)
            #expect(block == code, "README's library code and \(program)/main.swift differ")
        }

        let server = try await ReferenceServer.start()
        let bin = try await build()
        let run = try await ProcessRunner.runDetached(bin + "/readme-example", [], environment: environment(server))
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("uploaded 26 bytes"), "\(run.stdout)")
        #expect(run.stdout.contains("text/plain code 1 line(s)"), "\(run.stdout)")
        #expect(run.stdout.contains("0 change(s) kept"), "\(run.stdout)")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: server.root.file("Inbox"), isDirectory: &isFolder))
        #expect(isFolder.boolValue)
        #expect(
            run.stdout.contains("stat failed: notFound - officer:/no-such-file: no such file or folder"),
            "\(run.stdout)")
        #expect(
            try String(contentsOfFile: server.root.file("notes.txt"), encoding: .utf8) == "hello from the front door\n")
        #expect(
            try String(contentsOfFile: work.path + "/notes-copy.txt", encoding: .utf8) == "hello from the front door\n")

        let store = try await ObjectStoreServer.shared()
        let bucket = ObjectStoreServer.freshBucket("readme")
        var s3 = environment(server)
        s3["S3_ENDPOINT"] = store.url
        s3["S3_ACCESS_KEY"] = store.accessKey
        s3["S3_SECRET_KEY"] = store.secretKey
        s3["S3_BUCKET"] = bucket
        let stored = try await ProcessRunner.runDetached(bin + "/readme-object-store", [], environment: s3)
        #expect(stored.status == 0, "\(stored.stdout)\n\(stored.stderr)")
        #expect(stored.stdout.contains("backup:\(bucket)/2026/a.jpg 13"), "\(stored.stdout)")
        #expect(stored.stdout.contains("synced 1 file(s), 1 unchanged"), "\(stored.stdout)")
    }

    @Test func photoBackupPreparesSyncsAndReadsFacts() async throws {
        let server = try await ReferenceServer.start()
        let photos = work.path + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        for (name, width) in [("a.jpg", 3000), ("b.jpg", 1200)] {
            for step in [
                ["gaussnoise", work.file("n.v"), String(width), "900"],
                ["colourspace", work.file("n.v"), work.file("s.v"), "srgb"],
                ["cast", work.file("s.v"), work.file("c.v"), "uchar"],
                ["copy", work.file("c.v"), photos + "/" + name + "[Q=90]"],
            ] {
                #expect(try ProcessRunner.run("/usr/bin/vips", step).status == 0)
            }
        }
        try Data("not a photo\n".utf8).write(to: URL(fileURLWithPath: photos + "/notes.txt"))

        let bin = try await build()
        let first = try await ProcessRunner.runDetached(
            bin + "/photo-backup", [photos, "officer:/Backup/2026"], environment: environment(server))
        #expect(first.status == 0, "\(first.stdout)\n\(first.stderr)")
        #expect(first.stdout.contains("backed up: 3 files"), "\(first.stdout)")
        #expect(first.stdout.contains("done: a.jpg") && first.stdout.contains("done: notes.txt"), "\(first.stdout)")
        #expect(first.stdout.contains("facts: a.jpg image/jpeg image 1600x480"), "\(first.stdout)")
        let width = try ProcessRunner.run(
            "/usr/bin/vipsheader", ["-f", "width", server.root.file("Backup/2026/a.jpg")]
        ).stdout
        #expect(width.trimmingCharacters(in: .whitespacesAndNewlines) == "1600")
        #expect(
            try String(contentsOfFile: server.root.file("Backup/2026/notes.txt"), encoding: .utf8) == "not a photo\n")

        // Again: nothing changed, nothing goes up.
        let again = try await ProcessRunner.runDetached(
            bin + "/photo-backup", [photos, "officer:/Backup/2026"], environment: environment(server))
        #expect(
            again.status == 0 && again.stdout.contains("backed up: 0 files, 0 bytes, 3 unchanged"),
            "\(again.stdout)\n\(again.stderr)")
        let wrong = try await ProcessRunner.runDetached(
            bin + "/photo-backup", [photos, "officer:/Backup/2026"],
            environment: environment(server).merging(["OFFICER_PASSWORD": "wrong"]) { $1 })
        #expect(wrong.status == 1 && wrong.stderr.contains("[authentication]"), "\(wrong.stderr)")
    }
}

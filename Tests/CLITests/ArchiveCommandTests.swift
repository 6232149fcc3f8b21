import Foundation
import TestSupport
import Testing

@Suite struct ArchiveCommandTests {
    @Test func labelsTheFormatAndWarnsOfAModerateBomb() async throws {
        let work = TemporaryDirectory(prefix: "zipbomb")
        try FileManager.default.createDirectory(atPath: work.file("docs/inner"), withIntermediateDirectories: true)
        try Data(count: 20 << 20).write(to: URL(fileURLWithPath: work.file("docs/inner/zeros.bin")))
        let zipped = try ProcessRunner.run(
            "/usr/bin/bsdtar", ["--format", "zip", "-cf", work.file("docs.zip"), "-C", work.path, "docs"])
        try #require(zipped.status == 0, "\(zipped.stderr)")
        let cli = CLIRunner()
        let listed = try await cli.run(["archive", "ls", work.file("docs.zip")])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("ZIP: 1 file,") && !listed.stdout.contains("uncompressed"), "\(listed.stdout)")
        #expect(listed.stderr.contains("warning: bomb"), "a 20 MiB member at ~1000:1: \(listed.stderr)")
        let remote = try await cli.run(["archive", "ls", "officer:/Media/docs.zip"])
        // Remote archives are read by ranges (RemotePreviewTests); with no server configured, it says how to name one.
        #expect(remote.status == 3 && remote.stderr.contains("no server: pass --server URL"), "\(remote.stderr)")
    }

    @Test func listsAndCatsMembers() async throws {
        let work = TemporaryDirectory()
        try work.write("in/a.txt", "alpha\n")
        try work.write("in/big.bin", Data(count: 300_000))
        #expect(
            try ProcessRunner.run(
                "/usr/bin/bsdtar",
                ["--format", "zip", "-cf", work.file("x.zip"), "-C", work.file("in"), "a.txt", "big.bin"]
            ).status == 0)
        let cli = CLIRunner()
        let listing = try await cli.run(["archive", "ls", work.file("x.zip")])
        #expect(
            listing.status == 0 && listing.stdout.contains("a.txt") && listing.stdout.contains("2 files, 0 folders"))
        let json = try await cli.run(["archive", "ls", "--json", work.file("x.zip")])
        #expect(json.stdout.contains("\"files\":2"), "\(json.stdout)")
        let cat = try await cli.run(["archive", "cat", work.file("x.zip"), "a.txt"])
        #expect(cat.status == 0 && cat.stdout == "alpha\n")
        let capped = try await cli.run(["archive", "cat", "--max-size", "100K", work.file("x.zip"), "big.bin"])
        #expect(
            capped.status == 9 && capped.stderr.contains("larger than the limit of 102400 bytes (raise --max-size)"))
        let missing = try await cli.run(["archive", "cat", work.file("x.zip"), "nope.txt"])
        #expect(missing.status == 4 && missing.stderr.contains("no member nope.txt"))
        // Text, random bytes and an empty file are "not an archive", in our words (they were libarchive's
        // "Unrecognized archive format", and an empty file listed as an archive of nothing, exit 0).
        var generator = SystemRandomNumberGenerator()
        let junk = Data((0..<3000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        for (name, bytes) in [("fake.zip", Data("plain text\n".utf8)), ("junk.zip", junk), ("empty.zip", Data())] {
            let fake = try work.write(name, bytes)
            let refused = try await cli.run(["archive", "ls", fake])
            #expect(
                refused.status == 8 && refused.stderr.contains("\(fake): not an archive")
                    && !refused.stderr.contains("Unrecognized"), "\(refused.stderr)")
        }
    }
}

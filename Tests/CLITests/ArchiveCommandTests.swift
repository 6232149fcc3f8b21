import Foundation
import TestSupport
import Testing

@Suite struct ArchiveCommandTests {
    @Test func listsAndCatsMembers() async throws {
        let work = TemporaryDirectory()
        try work.write("in/a.txt", "alpha\n")
        try work.write("in/big.bin", Data(count: 300_000))
        #expect(try ProcessRunner.run("/usr/bin/bsdtar", ["--format", "zip", "-cf", work.file("x.zip"), "-C", work.file("in"), "a.txt", "big.bin"]).status == 0)
        let cli = CLIRunner()
        let listing = try await cli.run(["archive", "ls", work.file("x.zip")])
        #expect(listing.status == 0 && listing.stdout.contains("a.txt") && listing.stdout.contains("2 files, 0 folders"))
        let json = try await cli.run(["archive", "ls", "--json", work.file("x.zip")])
        #expect(json.stdout.contains("\"fileCount\":2"))
        let cat = try await cli.run(["archive", "cat", work.file("x.zip"), "a.txt"])
        #expect(cat.status == 0 && cat.stdout == "alpha\n")
        let capped = try await cli.run(["archive", "cat", "--max-size", "100K", work.file("x.zip"), "big.bin"])
        #expect(capped.status == 9 && capped.stderr.contains("larger than 102400 bytes"))
        let missing = try await cli.run(["archive", "cat", work.file("x.zip"), "nope.txt"])
        #expect(missing.status == 4 && missing.stderr.contains("no member nope.txt"))
        let fake = try work.write("fake.zip", "plain text\n")
        let refused = try await cli.run(["archive", "ls", fake])
        #expect(refused.status == 8 && refused.stderr.contains("fake.zip: cannot open archive"))
    }
}

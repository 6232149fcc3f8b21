import Testing

@testable import FileModel

/// Sync's pure parts: path order, name checks, glob patterns, filters, comparison.
@Suite struct SyncModelTests {
    func path(_ text: String) -> SyncPath { SyncPath(text.split(separator: "/").map(String.init)) }

    @Test func ordersDepthFirstByBytes() {
        let sorted = ["a b", "a", "a/x", "B", "a/x/y", "é", "a-b"].map(path).sorted()
        #expect(sorted.map(\.description) == ["B", "a", "a/x", "a/x/y", "a b", "a-b", "é"])
    }

    @Test func refusesUnsafeServerNames() {
        #expect(
            (try? SyncPath.relative(entryPath: "/s/a/b.txt", name: "b.txt", below: "/s").get())?.description
                == "a/b.txt")
        for (entryPath, name) in [
            ("/s/..", ".."), ("/etc/passwd", "passwd"), ("/s/a\0b", "a\0b"), ("/s/x/y", "x/y"), ("/s/a//b", "b"),
            ("/s/c", "d"),
        ] {
            #expect(throws: SyncNameError.self) {
                try SyncPath.relative(entryPath: entryPath, name: name, below: "/s").get()
            }
        }
        #expect(SyncNameError(name: "a\0b", reason: "x").printableName == "a\\u0000b")
        // The one name rule: a backslash is a plain character on Linux; control characters are refused.
        #expect(
            (try? SyncPath.relative(entryPath: "/s/back\\slash.txt", name: "back\\slash.txt", below: "/s").get()) != nil
        )
        #expect(throws: SyncNameError.self) {
            try SyncPath.relative(entryPath: "/s/tab\tname", name: "tab\tname", below: "/s").get()
        }
    }

    @Test func globsMatchLikeRclone() {
        func matches(_ pattern: String, _ text: String, directory: Bool = false) -> Bool {
            GlobPattern(pattern)!.matches(path(text), isDirectory: directory)
        }
        #expect(matches("*.tmp", "a/b/c.tmp") && !matches("*.tmp", "a/b/c.tmpx"))
        #expect(matches("/top.txt", "top.txt") && !matches("/top.txt", "a/top.txt"))
        #expect(matches("cache/", "a/cache", directory: true) && !matches("cache/", "a/cache"))
        #expect(matches("a/*/c", "a/b/c") && !matches("a/*/c", "a/b/x/c"))
        #expect(matches("a/**/c", "a/b/x/c") && matches("a/**/c", "a/c"))
        #expect(matches("file[0-9].txt", "x/file7.txt") && !matches("file[!0-9].txt", "file7.txt"))
        #expect(matches("?.md", "a.md") && !matches("?.md", "ab.md"))
        #expect(matches("b/c", "a/b/c"), "an unanchored pattern with a slash may start at any folder")
        #expect(GlobPattern("") == nil && GlobPattern("/") == nil)
    }

    @Test func theFirstMatchingRuleDecides() {
        var filter = SyncFilter()
        filter.add(include: true, pattern: GlobPattern("keep.tmp")!)
        filter.add(include: false, pattern: GlobPattern("*.tmp")!)
        #expect(filter.includes(path("x/keep.tmp"), isDirectory: false))
        #expect(!filter.includes(path("x/drop.tmp"), isDirectory: false))
        #expect(filter.includes(path("x/other.txt"), isDirectory: false))
    }

    @Test func comparesBySizeAndTime() {
        let a = SyncItem(path: path("f"), kind: .file, size: 10, mtime: 100.0)
        var b = a
        #expect(SyncComparison.sizeAndTime.needsTransfer(a, over: b) == false)
        b.mtime += 0.001
        #expect(SyncComparison.sizeAndTime.needsTransfer(a, over: b) == false, "the server keeps milliseconds")
        b.mtime += 1
        #expect(SyncComparison.sizeAndTime.needsTransfer(a, over: b) == true)
        #expect(SyncComparison.sizeOnly.needsTransfer(a, over: b) == false)
        #expect(SyncComparison.checksum.needsTransfer(a, over: b) == nil)
        b.size = 11
        #expect(SyncComparison.checksum.needsTransfer(a, over: b) == true)
    }
}

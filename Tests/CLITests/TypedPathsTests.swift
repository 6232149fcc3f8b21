import Testing

@testable import OfficerFilesCLI

/// Messages name local paths as the user typed them, not as the absolute paths the library works on.
@Suite struct TypedPathsTests {
    let paths = TypedPaths(
        arguments: ["nodir/x.txt", "ro/", "../up/f", "officer:/Documents", "/abs/f", "-", "s3:bucket/k", "./"],
        currentDirectory: "/home/ann/work")

    @Test func absolutePathsAreShownAsTyped() {
        #expect(paths.shown("/home/ann/work/nodir/: no such folder") == "nodir/: no such folder")
        #expect(paths.shown("/home/ann/work/nodir/x.txt: name too long") == "nodir/x.txt: name too long")
        #expect(paths.shown("/home/ann/work/ro/empty.txt: permission denied") == "ro/empty.txt: permission denied")
        #expect(paths.shown("Saved /home/ann/up/f (1 B)") == "Saved ../up/f (1 B)")
        #expect(paths.shown("nothing of /home/ann/work/big.bin was kept") == "nothing of ./big.bin was kept")
    }

    @Test func onlyWholePathsOutsideRemoteNamesChange() {
        // Another file whose name begins alike, and the same words inside a remote path, stay as they are.
        #expect(paths.shown("/home/ann/work/nodirs/x: gone") == "./nodirs/x: gone")
        #expect(paths.shown("officer:/home/ann/work/ro: gone") == "officer:/home/ann/work/ro: gone")
        #expect(paths.shown("/abs/f: gone") == "/abs/f: gone")
        #expect(TypedPaths().shown("/home/ann/work/ro: x") == "/home/ann/work/ro: x")
    }

    @Test func remotePathsURLsAndStreamsAreNotLocal() {
        #expect(!TypedPaths.isRelativeLocal("officer:/x"))
        #expect(!TypedPaths.isRelativeLocal("work:Documents/x"))
        #expect(!TypedPaths.isRelativeLocal("https://example.org/x"))
        #expect(!TypedPaths.isRelativeLocal("-"))
        #expect(!TypedPaths.isRelativeLocal(""))
        #expect(TypedPaths.isRelativeLocal("dir/a:b"))
        #expect(TypedPaths.withFolders("a/b/c/") == ["a/b/c", "a/b", "a"])
    }
}

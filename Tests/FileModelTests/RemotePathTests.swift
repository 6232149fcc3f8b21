import FileModel
import Foundation
import Testing

@Suite struct RemotePathTests {
    @Test(arguments: [
        ("/", "/"), ("", "/"), ("a/b", "/a/b"), ("/a//b/", "/a/b"), ("/a/./b/.", "/a/b"), ("/a/b/../c", "/a/c"),
        ("/a/..", "/"), ("/ünïcode/名前.txt", "/ünïcode/名前.txt"), ("/sp ace/+plus&amp", "/sp ace/+plus&amp"),
    ])
    func normalizes(input: String, expected: String) throws {
        #expect(try RemotePath(path: input).path == expected)
    }

    @Test func refusesEscapesNULAndControlCharacters() {
        #expect(throws: RemotePathError.escapesRoot("/..")) { try RemotePath(path: "/..") }
        #expect(throws: RemotePathError.escapesRoot("a/../../etc")) { try RemotePath(path: "a/../../etc") }
        #expect(throws: RemotePathError.containsNUL("/a\\0b")) { try RemotePath(path: "/a\0b") }
        #expect(throws: RemotePathError.controlCharacter("/a\nb")) { try RemotePath(path: "/a\nb") }
        #expect(throws: RemotePathError.invalidRoot("")) { try RemotePath(root: "", path: "/") }
        #expect(throws: RemotePathError.invalidRoot("a/b")) { try RemotePath(root: "a/b", path: "/") }
    }

    @Test func parsesTheCommandLineGrammar() throws {
        let plain = try RemotePath(parsing: "officer:/docs/a.txt")
        #expect(plain.root == "home" && plain.path == "/docs/a.txt")
        let rooted = try RemotePath(parsing: "officer:officer.dev:/src")
        #expect(rooted.root == "officer.dev" && rooted.path == "/src")
        let relative = try RemotePath(parsing: "officer:docs")
        #expect(relative.root == "home" && relative.path == "/docs")
        let otherDefault = try RemotePath(parsing: "officer:/x", defaultRoot: "work")
        #expect(otherDefault.root == "work")
        #expect(throws: RemotePathError.notRemote("/local/file")) { try RemotePath(parsing: "/local/file") }
        #expect(RemotePath.isRemote("officer:/") && !RemotePath.isRemote("./officer:/x"))
    }

    @Test func describesItselfInTheSameGrammar() throws {
        #expect(try RemotePath(path: "/a b").description == "officer:/a b")
        #expect(try RemotePath(root: "dev", path: "/x").description == "officer:dev:/x")
        let roundTrip = try RemotePath(parsing: try RemotePath(root: "dev", path: "/x/y").description)
        #expect(roundTrip == (try RemotePath(root: "dev", path: "/x/y")))
    }

    @Test func navigates() throws {
        let path = try RemotePath(path: "/a/b/c.txt")
        #expect(path.name == "c.txt")
        #expect(path.parent.path == "/a/b")
        #expect(path.parent.parent.parent.path == "/")
        #expect(path.parent.parent.parent.isRoot)
        #expect(try RemotePath(path: "/").appending("x").path == "/x")
        #expect(throws: RemotePathError.invalidComponent("..")) { try path.appending("..") }
        #expect(throws: RemotePathError.invalidComponent("a/b")) { try path.appending("a/b") }
    }

    @Test func errorMessagesNameTheInput() {
        #expect(RemotePathError.escapesRoot("/../x").description.contains("/../x"))
        #expect(RemotePathError.notRemote("foo").description.contains("officer:/path"))
    }

    /// Where plain paths are the server's (`ls`, `rm`, `cp`, `mv`), `./x` is still a place here: `cp officer:/a
    /// ./a` made `officer:/a` a second time on the server.
    @Test func aPathWrittenAsHereIsNeverTheServers() throws {
        for text in ["./local.txt", "../up.txt", "~/x", ".", ".."] {
            #expect(throws: RemotePathError.notRemote(text)) { try Location(parsing: text, plain: .officer) }
        }
        #expect(try Location(parsing: "notes.txt", plain: .officer) == .officer(try RemotePath(path: "/notes.txt")))
        #expect(try Location(parsing: "./local.txt", plain: .local) == .local("./local.txt"))
        // A colon that names no remote leaves a plain path; a path without one is plain at once.
        #expect(try Location(parsing: "/tmp/a:b.txt", plain: .local) == .local("/tmp/a:b.txt"))
        #expect(try Location(parsing: "/tmp/HTTP.txt", plain: .local) == .local("/tmp/HTTP.txt"))
        #expect(try Location(parsing: "HTTP://example.com/a", plain: .local) == .url("HTTP://example.com/a"))
    }

    /// A place's parent on every kind of remote (where `cp -p` and `put -p` make folders).
    @Test func aLocationsParent() throws {
        #expect(Location.local("/a/b.txt").parent == .local("/a"))
        #expect(Location.local("b.txt").parent == .local("."))
        #expect(Location.officer(try RemotePath(path: "/a/b")).parent == .officer(try RemotePath(path: "/a")))
        let key = ObjectStorePath(remote: "st", bucket: "bk1", key: "x/y.txt")
        #expect(Location.object(key).parent == .object(ObjectStorePath(remote: "st", bucket: "bk1", key: "x/")))
        #expect(Location.url("https://h/x").parent == nil)
    }
}

/// Which places a sync refuses as overlapping: one inside the other on the same remote, local links resolved.
@Suite struct LocationOverlapTests {
    func officer(_ text: String, remote: String? = nil) throws -> Location {
        .officer(try RemotePath(path: text, remote: remote))
    }

    @Test func nestedPlacesOnOneRemoteOverlap() throws {
        #expect(try officer("/Documents").overlaps(try officer("/Documents/inner")))
        #expect(try officer("/Documents/inner/").overlaps(try officer("/Documents")))
        #expect(try officer("/").overlaps(try officer("/x")))
        #expect(!(try officer("/Documents").overlaps(try officer("/Documents2"))))
        #expect(!(try officer("/Documents").overlaps(try officer("/Documents", remote: "work"))))
        let bucket = ObjectStorePath(remote: "st", bucket: "b", key: "photos")
        #expect(Location.object(bucket).overlaps(.object(ObjectStorePath(remote: "st", bucket: "b", key: "photos/x"))))
        #expect(!Location.object(bucket).overlaps(.object(ObjectStorePath(remote: "st", bucket: "c", key: "photos"))))
        #expect(!Location.object(bucket).overlaps(try officer("/photos")))
    }

    @Test func localPlacesOverlapThroughLinksAndDots() throws {
        let folder = NSTemporaryDirectory() + "overlap-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder + "/real/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/real")
        #expect(Location.local(folder + "/link/sub/new").overlaps(.local(folder + "/real")))
        #expect(Location.local(folder + "/real/../real/sub").overlaps(.local(folder + "/real/sub")))
        #expect(!Location.local(folder + "/real/sub").overlaps(.local(folder + "/real/subway")))
    }
}

/// Temp names are this tool's own and never reach a message.
@Suite struct TemporaryNamesTests {
    @Test func tempNamesAreShownAsTheNamesTheyStandFor() {
        #expect(
            TemporaryNames.shown("/proc/.notes.md.officer-download: Permission denied")
                == "/proc/notes.md: Permission denied")
        #expect(TemporaryNames.shown("dir/..x.officer-sync.officer-download: gone") == "dir/x: gone")
        #expect(TemporaryNames.shown("cannot write .a b.txt.officer-sync") == "cannot write a b.txt")
        #expect(TemporaryNames.shown("/home/.config/officer-files: fine") == "/home/.config/officer-files: fine")
    }

    @Test func everyNameAFileCanHaveGetsATempBesideItTheSameEachTime() {
        #expect(
            TemporaryNames.path(beside: "/a/notes.md", suffix: ".officer-download") == "/a/.notes.md.officer-download")
        #expect(TemporaryNames.path(beside: "notes.md", suffix: ".t", hidden: false) == "notes.md.t")
        #expect(TemporaryNames.path(beside: "/notes.md", suffix: ".t") == "/.notes.md.t")
        for name in [
            String(repeating: "L", count: 255), String(repeating: "é", count: 127) + "x",
            "日本" + String(repeating: "x", count: 240),
        ] {
            let temp = TemporaryNames.name(for: name, suffix: ".officer-download")
            #expect(temp.utf8.count <= 255 && temp.hasPrefix(".") && temp.hasSuffix(".officer-download"), "\(temp)")
            #expect(temp == TemporaryNames.name(for: name, suffix: ".officer-download"))
            // A temp of a temp (a sync's pull into `.NAME.officer-sync`, downloaded through its own temp) fits too.
            let nested = TemporaryNames.name(
                for: TemporaryNames.name(for: name, suffix: ".officer-sync"), suffix: ".officer-download")
            #expect(nested.utf8.count <= 255, "\(nested)")
        }
        let one = TemporaryNames.name(for: String(repeating: "a", count: 250) + "1", suffix: ".s")
        let two = TemporaryNames.name(for: String(repeating: "a", count: 250) + "2", suffix: ".s")
        #expect(one != two)
    }
}

import Foundation
import OfficerLinux
import Preview
import TestSupport
import Testing

/// Archives made by the tests with bsdtar, GNU tar and Python; hostile ones included.
@Suite struct ArchiveInspectionTests {
    let folder = TemporaryDirectory(prefix: "archives")

    init() throws {
        LinuxPlugins.install()
        try folder.write("in/readme.txt", "hello archive\n")
        try folder.write("in/docs/guide.md", String(repeating: "compressible line\n", count: 2000))
    }

    func bsdtar(_ arguments: [String]) throws {
        let result = try ProcessRunner.run("/usr/bin/bsdtar", arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }

    @Test(arguments: [
        ("a.zip", ["--format", "zip"]), ("a.tar.gz", ["--format", "ustar", "-z"]),
        ("a.tar.bz2", ["--format", "ustar", "-j"]),
        ("a.tar.xz", ["--format", "ustar", "-J"]), ("a.tar.zst", ["--format", "ustar", "--zstd"]),
        ("a.7z", ["--format", "7zip"]),
        ("a.iso", ["--format", "iso9660"]), ("a.cpio", ["--format", "cpio"]),
    ])
    func listsEveryFormat(name: String, flags: [String]) throws {
        try bsdtar(["-cf", folder.file(name)] + flags + ["-C", folder.file("in"), "readme.txt", "docs"])
        let inspection = try ArchiveInspection.inspect(folder.file(name))
        let files = inspection.members.filter { $0.kind == .file }.map {
            $0.path.replacingOccurrences(of: "./", with: "")
        }
        #expect(Set(files) == ["readme.txt", "docs/guide.md"], "\(name): \(inspection.members)")
        #expect(inspection.fileCount == 2 && inspection.totalSize == 14 + 36000, "\(name)")
        #expect(inspection.warnings.isEmpty, "\(name): \(inspection.warnings)")
        var text = Data()
        #expect(
            try ArchiveReader(path: folder.file(name)).read(member: "docs/guide.md", limit: 1 << 20) {
                text.append(contentsOf: $0)
            })
        #expect(text.count == 36000)
    }

    @Test func reportsTraversalAbsolutePathsLinksAndDuplicates() throws {
        let script = """
            import io, sys, tarfile
            with tarfile.open(sys.argv[1], "w") as t:
                for name in ["../escape.txt", "/etc/cron.d/evil", "ok.txt", "ok.txt"]:
                    info = tarfile.TarInfo(name); data = b"x"; info.size = len(data); t.addfile(info, io.BytesIO(data))
                link = tarfile.TarInfo("link"); link.type = tarfile.SYMTYPE; link.linkname = "../../home"; t.addfile(link)
                inside = tarfile.TarInfo("sub/fine"); inside.type = tarfile.SYMTYPE; inside.linkname = "../ok.txt"; t.addfile(inside)
                hard = tarfile.TarInfo("hard"); hard.type = tarfile.LNKTYPE; hard.linkname = "/etc/shadow"; t.addfile(hard)
            """
        let result = try ProcessRunner.run("/usr/bin/python3", ["-c", script, folder.file("evil.tar")])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = try ArchiveInspection.inspect(folder.file("evil.tar")).warnings
        #expect(warnings.contains { $0.kind == .parentTraversal && $0.entry == "../escape.txt" })
        #expect(warnings.contains { $0.kind == .absolutePath && $0.entry == "/etc/cron.d/evil" })
        #expect(warnings.contains { $0.kind == .linkEscapes && $0.entry == "link" })
        #expect(warnings.contains { $0.kind == .linkEscapes && $0.entry == "hard" })
        #expect(!warnings.contains { $0.entry == "sub/fine" })
        #expect(warnings.contains { $0.kind == .duplicateName && $0.entry == "ok.txt" })
    }

    @Test func flagsABombWithoutExpandingIt() throws {
        // 11 GiB of holes: GNU tar stores them sparse, so the archive is tiny and its header says 11 GiB.
        let sparse = try folder.write("huge.img", Data())
        #expect(truncate(sparse, 11 << 30) == 0)
        let result = try ProcessRunner.run(
            "/usr/bin/tar", ["--sparse", "-czf", folder.file("bomb.tar.gz"), "-C", folder.path, "huge.img"])
        #expect(result.status == 0, "\(result.stderr)")
        unlink(sparse)
        let started = Date()
        let inspection = try ArchiveInspection.inspect(folder.file("bomb.tar.gz"))
        // Expanding 11 GiB would take minutes; reading the header takes milliseconds, a minute even on a busy machine.
        #expect(Date().timeIntervalSince(started) < 60)
        #expect(inspection.totalSize == 11 << 30)
        #expect(inspection.warnings.contains { $0.kind == .bomb })
        #expect(throws: ArchiveError.tooLarge(file: folder.file("bomb.tar.gz"), entry: "huge.img", limit: 1 << 20)) {
            try ArchiveReader(path: folder.file("bomb.tar.gz")).read(member: "huge.img", limit: 1 << 20) { _ in }
        }
    }

    @Test func damagedAndFakeArchivesGetClearErrors() throws {
        try bsdtar(["-cf", folder.file("whole.tar.gz"), "--format", "ustar", "-z", "-C", folder.file("in"), "docs"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.file("whole.tar.gz")))
        let cut = try folder.write("cut.tar.gz", bytes.prefix(bytes.count / 2))
        #expect {
            try ArchiveInspection.inspect(cut)
        } throws: { error in
            "\(error)".hasPrefix(cut + ":")
        }
        // A zip cut where its central directory begins: libarchive gives no words; the message needs none of its own.
        try bsdtar(["-cf", folder.file("whole.zip"), "--format", "zip", "-C", folder.file("in"), "readme.txt", "docs"])
        let zip = try Data(contentsOf: URL(fileURLWithPath: folder.file("whole.zip")))
        let directory = try #require(zip.range(of: Data([0x50, 0x4B, 0x01, 0x02])))
        let noDirectory = try folder.write("nodirectory.zip", zip.prefix(upTo: directory.lowerBound))
        #expect {
            try ArchiveInspection.inspect(noDirectory)
        } throws: { error in
            "\(error)".hasPrefix(noDirectory + ": archive damaged or cut short after entry")
                && !"\(error)".contains("libarchive") && !"\(error)".hasSuffix(": ")
        }
        let fake = try folder.write("fake.zip", "this is just text pretending\n")
        #expect {
            try ArchiveInspection.inspect(fake)
        } throws: { error in
            guard case ArchiveError.notAnArchive(let file) = error else { return false }
            return file == fake
        }
        #expect(throws: ArchiveError.self) { try ArchiveInspection.inspect(folder.file("missing.zip")) }
    }
}

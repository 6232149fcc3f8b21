import Foundation
import OfficerLinux
import TestSupport
import Testing

@testable import Preview

/// The zip central-directory reader against libarchive's own listing of the same files, and against archives
/// that are damaged or not zips at all.
@Suite struct ZipDirectoryTests {
    init() { LinuxPlugins.install() }

    let work = TemporaryDirectory(prefix: "zipdir")

    /// A local file as a byte source that counts what it was asked for.
    final class FileSource: ByteSource {
        let data: Data
        var requested = 0
        init(_ path: String) throws { data = try Data(contentsOf: URL(fileURLWithPath: path)) }
        var size: Int64 { Int64(data.count) }
        func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            guard offset < size else { return 0 }
            let count = min(buffer.count, data.count - Int(offset))
            requested += count
            data.withUnsafeBytes {
                buffer.baseAddress!.copyMemory(from: $0.baseAddress! + Int(offset), byteCount: count)
            }
            return count
        }
    }

    @Test func listsWhatLibarchiveListsFromTheDirectoryAlone() throws {
        try work.write("in/a.txt", "alpha\n")
        try work.write("in/sub/b.bin", Data(repeating: 7, count: 100_000))
        try FileManager.default.createSymbolicLink(atPath: work.file("in/out"), withDestinationPath: "../../etc/passwd")
        chmod(work.file("in/a.txt"), 0o600)
        let zipped = try ProcessRunner.run(
            "/usr/bin/bsdtar",
            ["--format", "zip", "-cf", work.file("x.zip"), "-C", work.file("in"), "a.txt", "sub", "out"])
        try #require(zipped.status == 0, "\(zipped.stderr)")

        let local = try ArchiveInspection.inspect(work.file("x.zip"))
        let source = try FileSource(work.file("x.zip"))
        let remote = try ArchiveReader.inspect(source: source, name: "x.zip")
        #expect(remote.format == local.format)
        #expect(remote.members.map(\.path) == local.members.map(\.path))
        #expect(remote.members.map(\.kind) == local.members.map(\.kind))
        #expect(remote.members.map(\.mode) == local.members.map(\.mode))
        #expect(remote.members.map(\.mtime) == local.members.map(\.mtime))
        #expect(
            remote.members.filter { $0.kind == .file }.map(\.size)
                == local.members.filter { $0.kind == .file }.map(\.size))
        #expect(remote.members.first { $0.kind == .symlink }?.linkTarget == "../../etc/passwd")
        #expect(
            remote.warnings.map(\.kind) == local.warnings.map(\.kind)
                && remote.warnings.contains { $0.kind == .linkEscapes })
        // The directory, the end records and the link's few bytes: not the 100 KB member.
        #expect(source.requested < 66_000 + 2_000, "\(source.requested)")

        var member = Data()
        #expect(
            try ArchiveReader.read(member: "sub/b.bin", from: source, name: "x.zip", limit: 1 << 20) {
                member.append(contentsOf: $0)
            })
        #expect(member == Data(repeating: 7, count: 100_000))
        #expect(try !ArchiveReader.read(member: "nope", from: source, name: "x.zip", limit: 1 << 20) { _ in })
        #expect(throws: ArchiveError.self) {
            try ArchiveReader.read(member: "sub/b.bin", from: source, name: "x.zip", limit: 10) { _ in }
        }
    }

    @Test func readsZip64DirectoriesAndRefusesDamage() throws {
        // More than 65,535 entries: the counts live only in the zip64 end record.
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w") as z:
                for i in range(70000):
                    z.writestr("e/%05d" % i, "")
            """
        try #require(try ProcessRunner.run("/usr/bin/python3", ["-c", script, work.file("many.zip")]).status == 0)
        let directory = try #require(try ZipDirectory.read(try FileSource(work.file("many.zip")), name: "many.zip"))
        #expect(directory.entries.count == 70_000 && directory.entries.last?.member.path == "e/69999")

        // Not a zip: nil, so libarchive gets its turn.
        try work.write("plain.txt", String(repeating: "not a zip\n", count: 100))
        #expect(try ZipDirectory.read(try FileSource(work.file("plain.txt")), name: "plain.txt") == nil)
        // An end record that points outside the file: an error naming the archive, no crash.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: work.file("many.zip")))
        let end = bytes.count - 22
        if bytes[end] == 0x50, bytes[end + 1] == 0x4b, bytes[end + 2] == 0x05, bytes[end + 3] == 0x06 {
            bytes.replaceSubrange(end - 20..<end, with: Data(count: 20))  // drop the zip64 locator
            bytes.replaceSubrange(end + 16..<end + 20, with: Data([0xFE, 0xFF, 0xFF, 0x7F]))
        }
        try bytes.write(to: URL(fileURLWithPath: work.file("broken.zip")))
        #expect(throws: ArchiveError.self) {
            try ZipDirectory.read(try FileSource(work.file("broken.zip")), name: "broken.zip")
        }
    }
}

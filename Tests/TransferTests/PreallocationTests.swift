import Foundation
import TestSupport
import Testing

@testable import Transfer

/// A download's temp file is reserved at its length before parallel ranges land in it: on disk where the file system
/// can, and never by writing the length out where it cannot.
@Suite struct PreallocationTests {
    static let length: Int64 = 40 << 20

    /// The bytes the file holds on disk.
    func allocated(_ path: String) -> Int64 {
        var status = stat()
        stat(path, &status)
        return Int64(status.st_blocks) * 512
    }

    /// The length set, then the disk reserved as a download's ranges begin (beside them where the platform allows).
    func reserveAsADownloadDoes(_ partial: PartialFile) throws {
        if let later = try partial.reset(length: Self.length) { partial.reserveBlocks(later) }
    }

    func size(_ path: String) -> Int64 {
        var status = stat()
        stat(path, &status)
        return Int64(status.st_size)
    }

    /// ext2 has no `fallocate`: glibc's `posix_fallocate` would write every block of the length (before, 40 MiB
    /// were written before the first byte came; a 4 GiB file on an exFAT stick, minutes). The file gets its length
    /// and stays sparse.
    @Test func aFileSystemWithoutFallocateGetsTheLengthWithNothingWritten() throws {
        let disk = try LoopMount(type: "ext2", mebibytes: 64)
        let partial = try PartialFile.claim(for: disk.path + "/big.bin", force: false)
        try reserveAsADownloadDoes(partial)
        #expect(size(partial.path) == Self.length)
        #expect(allocated(partial.path) < 1 << 20, "\(allocated(partial.path)) bytes written to reserve it")
    }

    /// Where the file system reserves (tmpfs here), the length is held on disk before any range writes.
    @Test func aFileSystemWithFallocateReservesTheLength() throws {
        let disk = try TmpfsMount(size: "64m", prefix: "officer-reserve")
        let partial = try PartialFile.claim(for: disk.path + "/big.bin", force: false)
        try reserveAsADownloadDoes(partial)
        #expect(size(partial.path) == Self.length)
        #expect(allocated(partial.path) >= Self.length)
    }
}

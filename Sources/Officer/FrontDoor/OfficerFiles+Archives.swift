import FileModel
import Foundation
import Preview

extension OfficerFiles {
    /// Every member of a local archive (any format libarchive reads), with totals and a safety report (path
    /// traversal, absolute paths, links out, bombs, encryption).
    public func inspectArchive(_ local: String) throws -> ArchiveInspection {
        try Self.requireLocalFile(local)
        return try ArchiveInspection.inspect(local)
    }

    /// Streams one member of a local archive to `write`, refusing members larger than `limit` bytes;
    /// ``ArchiveMemberNotFound`` when the archive has no such member.
    public func readArchiveMember(
        _ member: String, of local: String, limit: Int64 = 1 << 30, to write: (UnsafeRawBufferPointer) -> Void
    ) throws {
        try Self.requireLocalFile(local)
        guard try ArchiveReader(path: local).read(member: member, limit: limit, write) else {
            throw ArchiveMemberNotFound(archive: local, member: member)
        }
    }

    /// A local path that must be an existing file.
    static func requireLocalFile(_ local: String) throws(LocalFileError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: local, isDirectory: &isDirectory) else { throw LocalFileError(path: local, problem: .missing) }
        if isDirectory.boolValue { throw LocalFileError(path: local, problem: .isAFolder) }
    }
}

/// An archive read for a member it does not hold.
public struct ArchiveMemberNotFound: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// The archive.
    public var archive: String
    /// The member's path as asked.
    public var member: String
    /// One line naming both.
    public var description: String { "\(archive): no member \(member)" }
    /// Nothing of that name.
    public var category: ErrorCategory { .notFound }
}

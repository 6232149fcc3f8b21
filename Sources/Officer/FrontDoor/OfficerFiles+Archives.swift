import FileModel
import Foundation
import HTTP
import Preview
import Transfer

extension OfficerFiles {
    /// Every member of an archive (any format libarchive reads) with totals and a safety report (path
    /// traversal, absolute paths, links out, bombs, encryption), read where it is: a remote zip by its end (the
    /// central directory) in Range requests and nothing else, other formats streamed from the start without a
    /// copy on disk; a cached copy the server still reports current (offline: any copy) is read instead.
    package func inspectArchive(_ location: Location) async throws -> ArchiveInspection {
        let bytes = try await remote(for: location).archiveBytes(location)
        return try await BlockingWork.onOwnThread(cancelling: bytes.ranged) {
            try bytes.inspect(name: location.description)
        }
    }

    /// Streams one member of an archive to `write` (called on a thread of its own), refusing members larger
    /// than `limit` bytes and fetching only that member's bytes and a zip's directory;
    /// ``ArchiveMemberNotFound`` when the archive has no such member.
    package func readArchiveMember(
        _ member: String, of location: Location, limit: Int64 = 1 << 30,
        to write: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
    ) async throws {
        let bytes = try await remote(for: location).archiveBytes(location)
        let name = location.description
        try await BlockingWork.onOwnThread(cancelling: bytes.ranged) {
            let found = try bytes.read(member: member, name: name, limit: limit, write)
            guard found else { throw ArchiveMemberNotFound(archive: name, member: member) }
        }
    }

}

extension RangedFile: ByteSource {}

/// An archive read for a member it does not hold.
package struct ArchiveMemberNotFound: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// The archive.
    package var archive: String
    /// The member's path as asked.
    package var member: String
    /// One line naming both.
    package var description: String { "\(archive): no member \(member)" }
    /// Nothing of that name.
    package var category: ErrorCategory { .notFound }
}

import Foundation
import Preview
import Transfer

/// Where an archive's bytes are read from: a file here (a local archive, the cache's copy), or a remote file
/// by ranges.
package enum ArchiveBytes: Sendable {
    case local(String)
    case ranged(RangedFile)

    var ranged: RangedFile? { if case .ranged(let file) = self { file } else { nil } }

    /// Every member with totals and a safety report, read where the bytes are (`name`: the archive as the user
    /// named it). Blocking: run on a thread of its own.
    func inspect(name: String) throws -> ArchiveInspection {
        switch self {
        case .local(let path): try ArchiveInspection.inspect(path)
        case .ranged(let file): try ArchiveReader.inspect(source: file, name: name)
        }
    }

    /// Streams one member to `write`, refusing one larger than `limit` bytes; false when there is no such member.
    /// Blocking: run on a thread of its own.
    func read(
        member: String, name: String, limit: Int64, _ write: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
    ) throws -> Bool {
        switch self {
        case .local(let path): try ArchiveReader(path: path).read(member: member, limit: limit, write)
        case .ranged(let file): try ArchiveReader.read(member: member, from: file, name: name, limit: limit, write)
        }
    }
}

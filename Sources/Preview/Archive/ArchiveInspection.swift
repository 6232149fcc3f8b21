import Foundation

/// Something in an archive that extracting it would regret.
package struct ArchiveWarning: Sendable, Codable, Equatable {
    /// The kind of risk.
    package enum Kind: String, Sendable, Codable {
        /// A member path starting with `/`.
        case absolutePath = "absolute-path"
        /// A member path with `..` components.
        case parentTraversal = "parent-traversal"
        /// A symlink or hard link pointing outside the extraction folder.
        case linkEscapes = "link-escapes"
        /// Two members with the same path.
        case duplicateName = "duplicate-name"
        /// Expands to far more than its size (a zip bomb).
        case bomb
        /// Encrypted members.
        case encrypted
    }

    /// The kind of risk.
    package var kind: Kind
    /// The member concerned, if one.
    package var entry: String?
    /// One line of explanation.
    package var detail: String
}

/// An archive's listing with totals and a safety report, read without extracting anything.
package struct ArchiveInspection: Sendable, Codable {
    /// The format libarchive detected.
    package var format: String
    /// Members in archive order.
    package var members: [ArchiveMember]
    /// Regular files.
    package var fileCount: Int
    /// Folders.
    package var directoryCount: Int
    /// Sum of the files' uncompressed sizes.
    package var totalSize: Int64
    /// The archive file's size.
    package var archiveSize: Int64
    /// Uncompressed over compressed size.
    package var ratio: Double
    /// What extracting it would risk.
    package var warnings: [ArchiveWarning]

    /// Expanding beyond this is reported as a bomb whatever the ratio.
    package static let bombTotal: Int64 = 10 << 30
    /// A ratio above this on more than ``bombRatioFloor`` bytes is reported as a bomb.
    package static let bombRatio = 200.0
    /// Below this, even a high ratio is harmless (a small file of zeros).
    package static let bombRatioFloor: Int64 = 16 << 20

    /// Lists `path` and checks every member.
    package static func inspect(_ path: String) throws(ArchiveError) -> ArchiveInspection {
        var info = stat()
        let size = stat(path, &info) == 0 ? Int64(info.st_size) : 0
        // An empty file is no archive (libarchive reads it as one of nothing).
        if size == 0, info.st_mode & S_IFMT == S_IFREG { throw .notAnArchive(file: path) }
        return try inspect(try ArchiveReader(path: path), archiveSize: size)
    }

    /// Lists an opened archive of `archiveSize` bytes and reports on it (see ``inspect(_:)``).
    package static func inspect(_ reader: ArchiveReader, archiveSize: Int64) throws(ArchiveError) -> ArchiveInspection {
        let members = try reader.members()
        return inspect(members: members, formatName: reader.formatName, archiveSize: archiveSize)
    }

    /// The report on `members` of an archive of `archiveSize` bytes in the format libarchive calls `formatName`.
    static func inspect(members: [ArchiveMember], formatName: String?, archiveSize: Int64) -> ArchiveInspection {
        // Only file data expands on extraction (ISO images, for one, give folders a size too).
        let total = members.filter { $0.kind == .file }.reduce(Int64(0)) { $0 + max(0, $1.size ?? 0) }
        var warnings: [ArchiveWarning] = []
        var seen: Set<String> = []
        for member in members {
            let clean = member.path.hasSuffix("/") ? String(member.path.dropLast()) : member.path
            if member.path.hasPrefix("/") {
                warnings.append(ArchiveWarning(kind: .absolutePath, entry: member.path, detail: "absolute path"))
            }
            if Self.hasDotDot(clean), clean.split(separator: "/").contains("..") {
                warnings.append(
                    ArchiveWarning(kind: .parentTraversal, entry: member.path, detail: "climbs out with '..'"))
            }
            if let target = member.linkTarget, member.kind == .symlink || member.kind == .hardlink {
                let base = member.kind == .symlink ? (clean as NSString).deletingLastPathComponent : ""
                if target.hasPrefix("/") || escapes(base: base, target: target) {
                    warnings.append(
                        ArchiveWarning(
                            kind: .linkEscapes, entry: member.path,
                            detail: "\(member.kind.rawValue) to \(target) leads outside"))
                }
            }
            if !seen.insert(clean).inserted {
                warnings.append(
                    ArchiveWarning(kind: .duplicateName, entry: member.path, detail: "appears more than once"))
            }
        }
        let encrypted = members.filter(\.encrypted).count
        if encrypted > 0 {
            warnings.append(ArchiveWarning(kind: .encrypted, entry: nil, detail: "\(encrypted) encrypted member(s)"))
        }
        let ratio = archiveSize > 0 ? Double(total) / Double(archiveSize) : 0
        if total > bombTotal || (ratio > bombRatio && total > bombRatioFloor) {
            warnings.append(
                ArchiveWarning(
                    kind: .bomb, entry: nil,
                    detail: "expands to \(total) bytes from \(archiveSize) (ratio \(Int(ratio)):1)"))
        }
        return ArchiveInspection(
            format: Self.formatLabel(formatName), members: members,
            fileCount: members.filter { $0.kind == .file }.count,
            directoryCount: members.filter(\.isDirectory).count, totalSize: total, archiveSize: archiveSize,
            ratio: ratio,
            warnings: warnings)
    }

    /// A byte scan for `..` (Foundation's `contains` goes through CFString and dominated big listings).
    /// The archive's format without libarchive's note on the first member's compression (`ZIP 2.0
    /// (uncompressed)` when the first member is a stored folder, though the rest are deflated).
    /// A zip is `ZIP` whichever member's "version needed" a reader saw first (libarchive names a local zip by
    /// its first local header, a remote one is read from its central directory: the same file was `ZIP 1.0`
    /// here and `ZIP 2.0` there).
    static func formatLabel(_ name: String?) -> String {
        guard let name else { return "empty" }
        let bare = name.range(of: " (").map { String(name[..<$0.lowerBound]) } ?? name
        return bare.hasPrefix("ZIP ") ? "ZIP" : bare
    }

    static func hasDotDot(_ text: String) -> Bool {
        var previousWasDot = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") {
                if previousWasDot { return true }
                previousWasDot = true
            } else {
                previousWasDot = false
            }
        }
        return false
    }

    /// True when `target`, taken relative to `base`, climbs above the extraction folder.
    static func escapes(base: String, target: String) -> Bool {
        var depth = 0
        for component in (base.isEmpty ? target : base + "/" + target).split(separator: "/") {
            switch component {
            case ".", "": continue
            case "..":
                depth -= 1
                if depth < 0 { return true }
            default: depth += 1
            }
        }
        return false
    }
}

import Foundation

/// An image file's format by its first bytes, named as messages name it (`JPEG`, `PNG`): libvips' error text is
/// one buffer for the whole process, and beside another image failing at the same time it can name that one's
/// format, so a failure says the format the file itself shows.
package enum ImageSignature {
    /// The format `bytes` (a file's first 16 or more) begin with; nil when none this tool reads.
    package static func format(of bytes: [UInt8]) -> String? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) { return "JPEG" }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return "PNG" }
        if starts(Array("GIF8".utf8)) { return "GIF" }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return "WebP" }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if starts(Array("ftyp".utf8), at: 4) { return "HEIF" }
        return nil
    }

    /// The format of the file at `path`, from its first 16 bytes; nil when unreadable or none this tool reads.
    package static func format(ofFileAt path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 16) else { return nil }
        return format(of: Array(head))
    }
}

import Foundation

/// The operating system's words for a failed file call (strerror's) in the project's vocabulary: "no such file or
/// folder", never "No such file or directory", in every message that passes a system error on.
package enum SystemWording {
    /// strerror's texts for the failures users meet, with ours.
    static let vocabulary: [(system: String, ours: String)] = [
        ("No such file or directory", "no such file or folder"),
        ("Not a directory", "not a folder"),
        ("Is a directory", "is a folder"),
        ("Directory not empty", "folder not empty"),
        ("Permission denied", "permission denied"),
        ("Operation not permitted", "not permitted"),
        ("No space left on device", "no space left on the disk"),
        ("Disk quota exceeded", "disk quota exceeded"),
        ("Read-only file system", "read-only file system"),
        ("File exists", "already exists"),
        ("File name too long", "name too long"),
        ("Too many levels of symbolic links", "too many levels of symbolic links"),
        ("Input/output error", "input/output error (the disk failed)"),
    ]

    /// `text` with every system phrase in it replaced by ours.
    package static func userTerms(_ text: String) -> String {
        var text = text
        for (system, ours) in vocabulary where text.contains(system) {
            text = text.replacing(system, with: ours)
        }
        return text
    }

    /// The system's words for the error number `code`, in ours.
    package static func words(for code: Int32) -> String { userTerms(String(cString: strerror(code))) }

    /// True for the error numbers of a full disk: no space left, or the user's quota on it used up.
    package static func isOutOfSpace(_ code: Int32) -> Bool { code == ENOSPC || code == EDQUOT }

    /// The error number under an error of Foundation's file calls (`FileManager`: a Cocoa error wrapping a POSIX
    /// one, or whose code stands for one; a POSIX error itself), nil for any other error. Read from the domains
    /// and codes, never the text.
    package static func posixCode(of error: any Error) -> Int32? {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
        guard error.domain == NSCocoaErrorDomain else { return nil }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? any Error,
            (underlying as NSError).domain == NSPOSIXErrorDomain
        {
            return Int32((underlying as NSError).code)
        }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileWriteOutOfSpace: return ENOSPC
        case .fileWriteVolumeReadOnly: return EROFS
        case .fileNoSuchFile, .fileReadNoSuchFile: return ENOENT
        case .fileWriteNoPermission, .fileReadNoPermission: return EACCES
        case .fileWriteFileExists: return EEXIST
        default: return nil
        }
    }
}

/// The operating system's words for a failed file call (strerror's) in the project's vocabulary: "no such file or
/// folder", never "No such file or directory", in every message that passes a system error on.
public enum SystemWording {
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
    public static func userTerms(_ text: String) -> String {
        var text = text
        for (system, ours) in vocabulary where text.contains(system) {
            text = text.replacing(system, with: ours)
        }
        return text
    }
}

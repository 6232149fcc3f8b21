import Foundation

/// Where a download lands for the DEST argument of `get`: a folder (existing, or ending with `/`) takes the
/// file under its own name, anything else is the file's path, nothing is the current folder.
enum SavedFile {
    static func path(for argument: String?, name: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        guard let argument else { return cwd + "/" + name }
        let absolute = argument.hasPrefix("/") ? argument : cwd + "/" + argument
        var isDirectory: ObjCBool = false
        if argument.hasSuffix("/")
            || (FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) && isDirectory.boolValue)
        {
            return (absolute as NSString).appendingPathComponent(name)
        }
        return absolute
    }
}

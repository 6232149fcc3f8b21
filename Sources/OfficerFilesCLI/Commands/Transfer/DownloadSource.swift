import FileModel
import Foundation
import HTTP
import Officer
import Transfer

/// What `get` and `cat` fetch: an Officer path through the `raw` endpoint, or any http(s) URL.
struct DownloadSource {
    /// The URL requested (empty for an Officer path: the front door makes its URL, with the token).
    var url: String
    /// The name a downloaded copy gets by default.
    var suggestedName: String
    /// For an Officer path: the path, fetched through the front door.
    var remote: RemotePath? = nil

    static func resolve(_ argument: String, context: CommandContext) throws -> DownloadSource {
        let lowered = argument.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            guard let components = URLComponents(string: argument), components.host != nil else {
                throw CLIError.usage("\(argument): not a valid URL")
            }
            let last = (components.path as NSString).lastPathComponent
            return DownloadSource(url: argument, suggestedName: safeName(last, fallback: "index.html"))
        }
        guard context.isOfficerPath(argument) else {
            throw CLIError.usage("\(argument): give an Officer path (officer:/path) or an http(s) URL")
        }
        let path = try context.remotePath(argument)
        guard !path.isRoot else { throw CLIError.usage("\(argument): is the top of a root, not a file") }
        return DownloadSource(url: "", suggestedName: safeName(path.name, fallback: "download"), remote: path)
    }

    /// A name that stays inside the destination folder whatever the server or URL said.
    static func safeName(_ name: String, fallback: String) -> String {
        let cleaned = name.removingPercentEncoding ?? name
        if cleaned.isEmpty || cleaned == "." || cleaned == ".." || cleaned == "/" || cleaned.contains("/") || cleaned.contains("\0") {
            return fallback
        }
        return cleaned
    }

    /// Where a download of this source lands for the DEST argument (a folder, a file name, or nothing).
    func destination(for argument: String?) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        guard let argument else { return cwd + "/" + suggestedName }
        let absolute = argument.hasPrefix("/") ? argument : cwd + "/" + argument
        var isDirectory: ObjCBool = false
        if argument.hasSuffix("/") || (FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) && isDirectory.boolValue) {
            return (absolute as NSString).appendingPathComponent(suggestedName)
        }
        return absolute
    }
}

import FileModel
import Foundation
import HTTP
import Officer
import Platform
import Transfer

/// Reads and writes `$XDG_CONFIG_HOME/officer-files/config.json` (default `~/.config/...`), always at mode 0600.
package struct ConfigStore: Sendable {
    /// The file's path.
    package let path: String

    /// A store at an explicit path.
    package init(path: String) { self.path = path }

    /// The store at the XDG location for this environment.
    package init(environment: [String: String]) {
        let base: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        }
        self.init(path: base + "/officer-files/config.json")
    }

    /// The saved configuration, or an empty one when there is no file yet.
    package func load() throws(ConfigError) -> OfficerConfig {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return OfficerConfig() }
            throw .io(path: path, message: String(cString: strerror(errno)))
        }
        let mode = Int(info.st_mode) & 0o777
        guard mode & 0o077 == 0 else { throw .tooOpen(path: path, mode: mode) }
        let version = FileVersion(info)
        if let kept = Self.lastRead.withLock({ $0[path] }), kept.version == version { return kept.config }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .io(path: path, message: "cannot read")
        }
        let config: OfficerConfig
        do {
            config = try JSONDecoder().decode(OfficerConfig.self, from: try Self.migrated(data, path: path))
        } catch let error as ConfigError {
            throw error
        } catch {
            throw .malformed(path: path, detail: String(describing: error))
        }
        if let token = config.token {
            do {
                try BearerCredential.validate(token)
            } catch {
                throw .malformed(path: path, detail: "\(error); log in again")
            }
        }
        Self.lastRead.withLock { $0[path] = (version, config) }
        return config
    }

    /// The file as a `stat` tells it apart from another version of itself: every save renames a new file into
    /// place (a new inode and change time).
    private struct FileVersion: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: [Int]
        var changed: [Int]

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = [Int(info.modificationTime.tv_sec), Int(info.modificationTime.tv_nsec)]
            changed = [Int(info.statusChangeTime.tv_sec), Int(info.statusChangeTime.tv_nsec)]
        }
    }

    /// The configuration last read from each path, with the version of the file it came from: a command parses
    /// every argument's location with it (`info` on 10,000 files read and decoded the file 20,000 times).
    private static let lastRead = LockedValue<[String: (version: FileVersion, config: OfficerConfig)]>([:])

    /// The format this build writes, as the file's `version` (absent in files of builds before versions were kept).
    static let formatVersion = 1

    /// The steps that bring a file of version N to N + 1, oldest first: version 1 is the layout every earlier
    /// build wrote, so step 0 only adds the number. Add a step for each change; never edit a released one.
    private static let migrations: [@Sendable (inout [String: Any]) -> Void] = [{ _ in }]

    /// The `version` a file's JSON carries (0 without one), nil when it is not a JSON object.
    static func version(of data: Data) -> Int? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return (object["version"] as? NSNumber)?.intValue ?? 0
    }

    /// The file's JSON brought to ``formatVersion``; a newer file is refused.
    static func migrated(_ data: Data, path: String) throws -> Data {
        guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { return data }
        let found = (object["version"] as? NSNumber)?.intValue ?? 0
        if found > formatVersion { throw ConfigError.newerFormat(path: path, found: found, supported: formatVersion) }
        guard found < formatVersion else { return data }
        for step in migrations[found...] { step(&object) }
        object["version"] = formatVersion
        return try JSONSerialization.data(withJSONObject: object)
    }

    /// Saves atomically: a 0600 temp file beside it, fsynced, renamed over the old one.
    package func save(_ config: OfficerConfig) throws(ConfigError) {
        Self.lastRead.withLock { $0[path] = nil }
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .io(path: directory, message: "cannot create folder: \(error.localizedDescription)")
        }
        // A newer build's file is never overwritten: what it holds may not survive this build's format.
        if let existing = FileManager.default.contents(atPath: path), let found = Self.version(of: existing),
            found > Self.formatVersion
        {
            throw .newerFormat(path: path, found: found, supported: Self.formatVersion)
        }
        let data: Data
        do {
            var object =
                try JSONSerialization.jsonObject(with: try JSONEncoder().encode(config)) as? [String: Any] ?? [:]
            object["version"] = Self.formatVersion
            data = try JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        } catch {
            throw .malformed(path: path, detail: "\(error)")
        }
        let temp = path + ".tmp-\(getpid())"
        let file: OpenFile
        do { file = try OpenFile(temp, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600) } catch {
            throw .io(path: temp, message: "\(error)")
        }
        let ok =
            data.withUnsafeBytes { SystemCalls.writeAll(file.descriptor, $0) } == nil
            && fchmod(file.descriptor, 0o600) == 0 && SystemCalls.synchronize(file.descriptor) && file.close()
        guard ok, rename(temp, path) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temp)
            throw .io(path: path, message: message)
        }
    }
}

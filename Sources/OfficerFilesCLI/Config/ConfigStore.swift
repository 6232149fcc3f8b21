import Foundation
import HTTP
import Officer
import Transfer

/// Reads and writes `$XDG_CONFIG_HOME/officer-files/config.json` (default `~/.config/...`), always at mode 0600.
public struct ConfigStore: Sendable {
    /// The file's path.
    public let path: String

    /// A store at an explicit path.
    public init(path: String) { self.path = path }

    /// The store at the XDG location for this environment.
    public init(environment: [String: String]) {
        let base: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        }
        self.init(path: base + "/officer-files/config.json")
    }

    /// The saved configuration, or an empty one when there is no file yet.
    public func load() throws(ConfigError) -> OfficerConfig {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return OfficerConfig() }
            throw .io(path: path, message: String(cString: strerror(errno)))
        }
        let mode = Int(info.st_mode) & 0o777
        guard mode & 0o077 == 0 else { throw .tooOpen(path: path, mode: mode) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .io(path: path, message: "cannot read")
        }
        let config: OfficerConfig
        do {
            config = try JSONDecoder().decode(OfficerConfig.self, from: data)
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
        return config
    }

    /// Saves atomically: a 0600 temp file beside it, fsynced, renamed over the old one.
    public func save(_ config: OfficerConfig) throws(ConfigError) {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .io(path: directory, message: "cannot create folder: \(error.localizedDescription)")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do { data = try encoder.encode(config) } catch { throw .malformed(path: path, detail: "\(error)") }
        let temp = path + ".tmp-\(getpid())"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io(path: temp, message: String(cString: strerror(errno))) }
        let ok = data.withUnsafeBytes { bytes in write(fd, bytes.baseAddress, bytes.count) == bytes.count }
            && fchmod(fd, 0o600) == 0 && fsync(fd) == 0
        close(fd)
        guard ok, rename(temp, path) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temp)
            throw .io(path: path, message: message)
        }
    }
}

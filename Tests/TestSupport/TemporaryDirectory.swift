import Foundation
import OfficerLinux

/// A fresh folder under the system temp dir, removed with everything in it when released.
public final class TemporaryDirectory: @unchecked Sendable {
    /// Its absolute path.
    public let path: String

    /// Creates the folder; `inMemory` puts it on tmpfs (`/dev/shm`) when there is one, for tests that move
    /// hundreds of megabytes: on disk their writes and fsyncs would slow every other test's journal.
    public init(prefix: String = "officer-files-test", inMemory: Bool = false) {
        // Every test works on files, so here the process gets the Linux plug-ins the CLI runs on (libmagic,
        // libarchive, libvips, OpenSSL, libcurl as the default engine); a test of the portable core names its
        // engine itself (``TestEngine``).
        LinuxPlugins.install()
        let memory = inMemory && FileManager.default.isWritableFile(atPath: "/dev/shm")
        let base = memory ? "/dev/shm" : URL(fileURLWithPath: NSTemporaryDirectory()).standardizedFileURL.path
        var template = Array((base + "/\(prefix)-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(created != nil, "mkdtemp failed")
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// `path/name`.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes bytes to `path/name`, creating parent folders.
    @discardableResult
    public func write(_ name: String, _ data: Data) throws -> String {
        let target = file(name)
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: target))
        return target
    }

    /// Writes UTF-8 text to `path/name`.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String { try write(name, Data(text.utf8)) }
}

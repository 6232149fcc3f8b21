import Foundation
import Preview

/// An owned libmagic cookie with its database loaded, answering `mime/type; charset=…`.
///
/// libmagic cookies are not thread-safe: give each thread its own (``MagicCookie/forCurrentThread()``).
package final class MagicCookie {
    private let cookie: OpaquePointer

    /// Opens a cookie and loads the system's default magic database: in MIME mode (`image/png; charset=binary`),
    /// or with `mime: false` in description mode, as `file(1)` prints (`PNG image data, 8 x 8, 8-bit/color RGB`).
    package init(mime: Bool = true) throws(MagicError) {
        guard let cookie = MagicCalls.open(flags: mime ? MagicCalls.mimeFlags : MagicCalls.describeFlags) else {
            throw .openFailed
        }
        guard MagicCalls.load(cookie) == 0 else {
            let message = MagicCalls.error(cookie) ?? "unknown error"
            MagicCalls.close(cookie)
            throw .databaseLoadFailed(message)
        }
        self.cookie = cookie
    }

    deinit { MagicCalls.close(cookie) }

    /// The libmagic version, e.g. `5.44`.
    package static var libraryVersion: String {
        let version = MagicCalls.version()
        return "\(version / 100).\(version % 100)"
    }

    /// The calling thread's cookie (MIME or description mode), created and loaded on first use.
    package static func forCurrentThread(mime: Bool = true) throws(MagicError) -> MagicCookie {
        let key = mime ? "officer-files.magic-cookie" : "officer-files.magic-cookie.describe"
        if let cookie = Thread.current.threadDictionary[key] as? MagicCookie { return cookie }
        let cookie = try MagicCookie(mime: mime)
        Thread.current.threadDictionary[key] = cookie
        return cookie
    }

    /// libmagic's raw answer for a file on disk, e.g. `image/png; charset=binary`.
    package func describe(file path: String) throws(MagicError) -> String {
        guard let answer = MagicCalls.file(cookie, path) else {
            throw .detectionFailed(file: path, message: MagicCalls.error(cookie) ?? "unknown error")
        }
        return answer
    }

    /// libmagic's raw answer for bytes in memory.
    package func describe(bytes: Data) throws(MagicError) -> String {
        let answer = bytes.withUnsafeBytes { MagicCalls.buffer(cookie, $0) }
        guard let answer else {
            throw .detectionFailed(file: "<buffer>", message: MagicCalls.error(cookie) ?? "unknown error")
        }
        return answer
    }
}

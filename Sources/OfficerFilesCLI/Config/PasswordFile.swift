import Foundation
import Platform

/// A password kept in a file of its own (`login --password-file`, `OFFICER_PASSWORD_FILE`): the first line of a
/// regular file that only its owner may read, read afresh each time it is needed (so it can be changed).
enum PasswordFile {
    /// The password in `path`; refused when group or others may read the file, or when it is empty.
    static func read(_ path: String) throws(CLIError) -> String {
        let file: OpenFile
        do { file = try OpenFile(path, O_RDONLY | O_NOCTTY) } catch {
            throw .localFile(path: path, message: "\(error)")
        }
        let fd = file.descriptor
        defer { withExtendedLifetime(file) {} }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw .localFile(path: path, message: "not a regular file: a password file is one")
        }
        let mode = Int(info.st_mode) & 0o777
        guard mode & 0o077 == 0 else {
            throw .localFile(
                path: path,
                message: "mode \(String(mode, radix: 8)) lets others read your password; run 'chmod 600 \(path)'")
        }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw .localFile(path: path, message: String(cString: strerror(errno))) }
        let line =
            bytes[..<count].split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first
            ?? []
        var password = String(decoding: line, as: UTF8.self)
        if password.hasSuffix("\r") { password.removeLast() }
        guard !password.isEmpty else { throw .localFile(path: path, message: "empty: its first line is the password") }
        return password
    }
}

import Foundation
import Platform

/// Reads a password without echoing it: from the terminal (`/dev/tty`), or one line of stdin.
enum PasswordPrompt {
    /// Prompts on the controlling terminal with echo off; nil when there is no terminal. Ctrl-C there throws
    /// `CancellationError` at once, with the terminal as it was (a blocked read would otherwise wait for Enter).
    static func fromTerminal(prompt: String) throws -> String? {
        guard let terminal = try? OpenFile("/dev/tty", O_RDWR) else { return nil }
        let fd = terminal.descriptor
        defer { withExtendedLifetime(terminal) {} }
        var original = termios()
        guard tcgetattr(fd, &original) == 0 else { return nil }
        var silent = original
        // Byte by byte, with Ctrl-C as a byte: the prompt itself reads the keys a terminal would act on.
        silent.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG)
        withUnsafeMutableBytes(of: &silent.c_cc) {
            $0[Int(VMIN)] = 1; $0[Int(VTIME)] = 0
        }
        _ = prompt.withCString { write(fd, $0, strlen($0)) }
        tcsetattr(fd, TCSAFLUSH, &silent)
        defer {
            tcsetattr(fd, TCSAFLUSH, &original)
            _ = write(fd, "\n", 1)
        }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1 {
            switch byte {
            case 0x03: throw CancellationError()
            case 0x04 where bytes.isEmpty: return nil
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"): return String(decoding: bytes, as: UTF8.self)
            case 0x7F, 0x08: if !bytes.isEmpty { bytes.removeLast() }
            case 0x15: bytes.removeAll()
            default: bytes.append(byte)
            }
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// One line of standard input (for `--password-stdin`).
    static func fromStandardInput() -> String? { readLine(fd: 0) }

    /// A secret from one line of stdin when `standardInput` (a `--…-stdin` flag), else from the terminal
    /// without echo; a usage error naming `flag` when there is none (a secret never comes from the command line).
    static func secret(standardInput: Bool, prompt: String, flag: String, what: String) throws -> String {
        guard let secret = standardInput ? fromStandardInput() : try fromTerminal(prompt: prompt), !secret.isEmpty
        else {
            throw CLIError.usage("no \(what): type it at the prompt, or pipe it with \(flag)")
        }
        return secret
    }

    private static func readLine(fd: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}

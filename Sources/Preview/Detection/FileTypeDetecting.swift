import Foundation

/// What tells a file's type from its first bytes: a platform plug-in (libmagic's on Linux; an Apple app's could
/// ask UTType). Without one, ``FileTypeDetector`` fails with ``MagicError/notAvailable``.
package protocol FileTypeDetecting: Sendable {
    /// The library behind it, for `--version`.
    var libraryVersion: String { get }
    /// The answer for `bytes`: with `mime`, `type/subtype; charset=…`; without, a description as `file(1)` prints.
    func describe(bytes: Data, mime: Bool) throws(MagicError) -> String
}

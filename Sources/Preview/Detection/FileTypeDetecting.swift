import Foundation

/// What tells a file's type from its first bytes: a plug-in (libmagic's on Linux; an Apple app's could ask
/// UTType, given in its front door's configuration). Without one, telling a type from bytes fails with
/// ``MagicError/notAvailable``.
public protocol FileTypeDetecting: Sendable {
    /// The library behind it, for `--version`.
    var libraryVersion: String { get }
    /// The answer for `bytes`: with `mime`, `type/subtype; charset=…`; without, a description as `file(1)` prints.
    func describe(bytes: Data, mime: Bool) throws(MagicError) -> String
}

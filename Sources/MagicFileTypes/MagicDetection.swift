import Foundation
import Preview

/// libmagic behind Preview's ``FileTypeDetecting``: a Linux plug-in. Each thread asks through its own cookie
/// (libmagic's are not thread-safe).
package struct MagicDetection: FileTypeDetecting {
    /// Creates the plug-in.
    package init() {}

    package var libraryVersion: String { "libmagic \(MagicCookie.libraryVersion)" }

    package func describe(bytes: Data, mime: Bool) throws(MagicError) -> String {
        try MagicCookie.forCurrentThread(mime: mime).describe(bytes: bytes)
    }
}

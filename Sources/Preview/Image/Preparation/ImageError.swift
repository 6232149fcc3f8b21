/// Why an image could not be prepared; each names the file.
///
/// Cases may be added in a later version: a `switch` over it keeps a `default`.
public enum ImageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No ``ImagePreparing`` plug-in is installed to work on `file`.
    case notAvailable(file: String)
    /// Not one of JPEG, PNG, WebP, HEIC/HEIF, GIF, TIFF (or a loader that is blocked as untrusted).
    case unsupported(file: String, detail: String)
    /// More pixels than the limit: refused before any decoding.
    case tooManyPixels(file: String, width: Int, height: Int, limit: Int)
    /// The file is corrupt or truncated.
    case undecodable(file: String, message: String)
    /// The result could not be written.
    case writeFailed(file: String, message: String)
    /// An option is out of range.
    case invalidOption(String)
    /// The output exists and replacing was not asked for.
    case outputExists(file: String)
    /// The output is the input itself: never overwritten, whatever was asked.
    case outputIsInput(file: String)
    /// The input cannot be read (permissions, missing).
    case unreadable(file: String, message: String)
    /// It could not be prepared (why), and sent as it is it would carry the GPS position preparing strips.
    indirect case wouldSendPosition(ImageError)

    /// A one-line message.
    public var description: String {
        switch self {
        case .notAvailable(let file):
            "\(file): only a JPEG's position can be removed without an image plug-in; this one is not sent"
        case .unsupported(let file, let detail): "\(file): not an image officer-files prepares (\(detail))"
        case .tooManyPixels(let file, let width, let height, let limit):
            "\(file): \(width)×\(height) is \(width * height) pixels, more than the limit of \(limit)"
        case .undecodable(let file, let message): "\(file): damaged or truncated image: \(message)"
        case .writeFailed(let file, let message): "\(file): cannot write: \(message)"
        case .invalidOption(let message): message
        case .outputExists(let file): "\(file): already exists"
        case .outputIsInput(let file): "\(file): is the input image; write the prepared copy elsewhere"
        case .unreadable(let file, let message): "\(file): cannot read: \(message)"
        case .wouldSendPosition(let reason): "\(reason.description); not uploaded as it is: it may hold a GPS position"
        }
    }
}

extension ImageError {
    /// The failure is the file's own (not an image it can be, damaged, too large to decode), not the machine's
    /// or the options': best effort uploads such a file as it is.
    package var isAboutTheImage: Bool {
        switch self {
        case .unsupported, .tooManyPixels, .undecodable: true
        case .writeFailed, .invalidOption, .outputExists, .outputIsInput, .unreadable, .wouldSendPosition,
            .notAvailable:
            false
        }
    }
}

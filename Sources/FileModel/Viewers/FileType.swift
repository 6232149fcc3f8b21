/// What a file is, as far as showing it goes.
public struct FileType: Sendable, Equatable, Codable {
    /// MIME type, e.g. `image/png`.
    public var mime: String
    /// Text encoding (`utf-8`, `us-ascii`, …) or `binary`.
    public var charset: String
    /// The viewer that fits.
    public var viewer: ViewerKind
    /// Highlighting language for code, when known.
    public var language: String?
    /// The AI actions that apply.
    public var actions: [AIAction]
    /// True when the extension decided because the content was generic (plain text, zip, unknown bytes).
    public var fromExtension: Bool

    /// Reconciles libmagic's content answer with a file name: content first, the extension only where the
    /// content is generic (text/plain for `.md`, application/zip for `.docx`, unknown bytes).
    public init(contentMIME: String, charset: String, fileName: String) {
        let ext =
            fileName.split(separator: ".").count > 1 ? String(fileName.split(separator: ".").last!).lowercased() : ""
        let row = FileTypeTable.byExtension[ext]
        var mime = contentMIME
        var fromExtension = false
        // Content over extension: a name never makes a type whose bytes always say what they are.
        if let row, FileTypeTable.genericMIMETypes.contains(contentMIME) || row.mime == contentMIME,
            row.mime == contentMIME || !FileTypeTable.isAlwaysSigned(row.mime)
        {
            // A text extension must not relabel binary bytes, nor a binary extension text.
            let textual = row.viewer == .code || row.viewer == .markdown
            let contentIsText = contentMIME.hasPrefix("text/") || charset != "binary"
            let opaque = ["application/octet-stream", "application/zip", "application/x-empty", "inode/x-empty"]
                .contains(contentMIME)
            if textual == contentIsText || opaque {
                mime = row.mime
                fromExtension = row.mime != contentMIME
            }
        }
        self.mime = mime
        self.charset = charset
        self.fromExtension = fromExtension
        let viewer =
            row.map { $0.mime == mime ? $0.viewer : FileTypeTable.viewer(forMIME: mime) }
            ?? FileTypeTable.viewer(forMIME: mime)
        self.viewer = viewer
        // The extension names the language even where libmagic named the type (text/x-script.python for .py).
        language = viewer == .code || viewer == .markdown ? row?.language : nil
        actions = viewer.aiActions.filter { $0.accepts(mime: mime) }
    }
}

/// The seed's viewer table and the extension knowledge that libmagic lacks, kept as data.
package enum FileTypeTable {
    /// One extension's facts.
    package struct Row: Sendable, Equatable {
        /// The MIME type files with this extension have.
        package var mime: String
        /// The viewer that shows them.
        package var viewer: ViewerKind
        /// The highlighting language, for code.
        package var language: String?
    }

    /// Rows by lowercase extension.
    package static let byExtension: [String: Row] = {
        var rows: [String: Row] = [:]
        func add(_ extensions: [String], _ mime: String, _ viewer: ViewerKind, _ language: String? = nil) {
            for ext in extensions { rows[ext] = Row(mime: mime, viewer: viewer, language: language) }
        }
        add(["md", "markdown"], "text/markdown", .markdown, "markdown")
        add(["txt", "text", "log"], "text/plain", .code)
        add(["json"], "application/json", .code, "json")
        add(["ts", "tsx"], "text/x-typescript", .code, "typescript")
        add(["js", "mjs", "cjs", "jsx"], "text/javascript", .code, "javascript")
        add(["swift"], "text/x-swift", .code, "swift")
        add(["py"], "text/x-python", .code, "python")
        add(["rs"], "text/x-rust", .code, "rust")
        add(["go"], "text/x-go", .code, "go")
        add(["c", "h"], "text/x-c", .code, "c")
        add(["cpp", "cc", "hpp", "cxx"], "text/x-c++", .code, "cpp")
        add(["java"], "text/x-java", .code, "java")
        add(["kt", "kts"], "text/x-kotlin", .code, "kotlin")
        add(["rb"], "text/x-ruby", .code, "ruby")
        add(["sh", "bash", "zsh"], "text/x-shellscript", .code, "bash")
        add(["yaml", "yml"], "application/yaml", .code, "yaml")
        add(["toml"], "application/toml", .code, "toml")
        add(["xml"], "application/xml", .code, "xml")
        add(["html", "htm"], "text/html", .code, "html")
        add(["css"], "text/css", .code, "css")
        add(["csv"], "text/csv", .code, "csv")
        add(["sql"], "application/sql", .code, "sql")
        add(["jpg", "jpeg"], "image/jpeg", .image)
        add(["png"], "image/png", .image)
        add(["gif"], "image/gif", .image)
        add(["svg"], "image/svg+xml", .image)
        add(["webp"], "image/webp", .image)
        add(["heic", "heif"], "image/heic", .image)
        add(["pdf"], "application/pdf", .pdf)
        add(["mp3"], "audio/mpeg", .audio)
        add(["wav"], "audio/x-wav", .audio)
        add(["flac"], "audio/flac", .audio)
        add(["ogg", "oga"], "audio/ogg", .audio)
        add(["m4a"], "audio/mp4", .audio)
        add(["mp4", "m4v"], "video/mp4", .video)
        add(["webm"], "video/webm", .video)
        add(["mov"], "video/quicktime", .video)
        add(["mkv"], "video/x-matroska", .transcodedVideo)
        add(["avi"], "video/x-msvideo", .transcodedVideo)
        add(["docx"], "application/vnd.openxmlformats-officedocument.wordprocessingml.document", .download)
        add(["xlsx"], "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", .download)
        add(["pptx"], "application/vnd.openxmlformats-officedocument.presentationml.presentation", .download)
        add(["epub"], "application/epub+zip", .download)
        add(["jar"], "application/java-archive", .download)
        add(["apk"], "application/vnd.android.package-archive", .download)
        add(["odt"], "application/vnd.oasis.opendocument.text", .download)
        add(["zip"], "application/zip", .download)
        add(["bin"], "application/octet-stream", .download)
        return rows
    }()

    /// MIME types libmagic gives when it cannot tell more; the extension then decides.
    package static let genericMIMETypes: Set<String> = [
        "text/plain", "application/octet-stream", "application/zip", "application/x-empty", "inode/x-empty",
    ]

    /// Whether bytes of `mime` always carry a signature content detection knows (a picture's, a PDF's): content
    /// detection that found none proves the bytes are not of that type, whatever the name says (5,000 random bytes
    /// named `junk.jpg` are no JPEG).
    package static func isAlwaysSigned(_ mime: String) -> Bool {
        mime.hasPrefix("image/") && mime != "image/svg+xml" || mime == "application/pdf"
    }

    /// The viewer for a MIME type when the extension says nothing.
    package static func viewer(forMIME mime: String) -> ViewerKind {
        switch mime {
        case "text/markdown": return .markdown
        case "application/pdf": return .pdf
        case "video/x-matroska", "video/x-msvideo": return .transcodedVideo
        case "application/json", "application/xml", "application/javascript", "application/x-sh", "application/yaml":
            return .code
        default: break
        }
        if mime.hasPrefix("image/") { return .image }
        if mime.hasPrefix("audio/") { return .audio }
        if mime.hasPrefix("video/") { return .video }
        if mime.hasPrefix("text/") { return .code }
        return .download
    }
}

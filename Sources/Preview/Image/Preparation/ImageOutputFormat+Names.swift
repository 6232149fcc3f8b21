import Foundation

/// The one rule that keeps a prepared image's name and bytes in agreement: a name's extension says its format,
/// and a prepared copy is named by the format it was written in.
extension ImageOutputFormat {
    /// The format a file name's extension names (`.jpg`, `.jpeg`, `.png`, `.webp`, `.tif`, `.tiff`, `.gif`).
    package init?(fileName: String) {
        switch (fileName as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        case "tif", "tiff": self = .tiff
        case "gif": self = .gif
        default: return nil
        }
    }

    /// `name` as a file of this format: itself when its extension already says so (`a.jpeg` stays), else its
    /// stem with this format's extension (`IMG_1.heic` → `IMG_1.jpg`).
    package func name(for name: String) -> String {
        if ImageOutputFormat(fileName: name) == self { return name }
        return (name as NSString).deletingPathExtension + "." + fileExtension
    }

    /// Whether this libvips writes the format.
    package var isWritable: Bool { self != .gif || ImagePreparer.plugin.value?.canWriteGIF == true }
}

extension ImageFormatChoice {
    /// The format an image named `name` is prepared in, from its name alone (a sync compares listings by the
    /// names this gives): the choice, or with `keep` the name's own format where it is written here, else JPEG.
    package func outputFormat(forName name: String) -> ImageOutputFormat {
        switch self {
        case .jpeg: return .jpeg
        case .webp: return .webp
        case .keep:
            guard let own = ImageOutputFormat(fileName: name), own.isWritable else { return .jpeg }
            return own
        }
    }

    /// The name a prepared copy of `name` goes up under.
    package func preparedName(for name: String) -> String { outputFormat(forName: name).name(for: name) }
}

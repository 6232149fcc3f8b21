import Foundation
import Preview

/// The image options `put` and `image prepare` share, read from the command line.
enum ImageSettings {
    static let options: [OptionSpec] = [
        OptionSpec(["--quality"], .value(placeholder: "Q"), help: "JPEG/WebP quality 1-100 (default 85)"),
        OptionSpec(
            ["--format"], .value(placeholder: "jpeg|webp|keep"), help: "output format (default keep; HEIC becomes JPEG)"
        ),
        OptionSpec(["--keep-metadata"], help: "keep EXIF/XMP/IPTC (GPS included); stripped by default"),
        OptionSpec(
            ["--pixel-limit"], .value(placeholder: "N"), help: "refuse images above N pixels (default 100000000)"),
    ]

    static func parse(_ parsed: ParsedCommand, maxEdge: String?, option: String = "--resize") throws
        -> ImagePreparationOptions
    {
        var options = ImagePreparationOptions()
        if let text = maxEdge {
            guard let edge = Int(text), (16...65_535).contains(edge) else {
                throw ArgumentError.invalidValue(
                    option: option, value: text, reason: "a longest edge in pixels, 16 to 65535")
            }
            options.maxEdge = edge
        }
        if let quality = try parsed.number("quality", in: 1...100) { options.quality = quality }
        if let text = parsed.value("format") {
            guard let format = ImageFormatChoice(rawValue: text.lowercased()) else {
                throw ArgumentError.invalidValue(
                    option: parsed.spelling("format"), value: text, reason: "jpeg, webp or keep")
            }
            options.format = format
        }
        if let text = parsed.value("pixel-limit") {
            guard let limit = Int(text), limit > 0 else {
                throw ArgumentError.invalidValue(
                    option: "--pixel-limit", value: text, reason: "a positive number of pixels")
            }
            options.pixelLimit = limit
        }
        options.keepMetadata = parsed.flag("keep-metadata")
        return options
    }
}

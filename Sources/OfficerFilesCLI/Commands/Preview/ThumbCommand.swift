import FileModel
import Foundation
import Officer
import Preview

/// `thumb`: JPEG thumbnails of local and remote pictures, written to a folder.
enum ThumbCommand: Command {
    static let spec = CommandSpec(
        "thumb", summary: "make JPEG thumbnails of local or officer: pictures (a folder: every picture in it)",
        discussion: """
            A remote file's thumbnail comes from the server's thumbnail endpoint when it has one, else from the
            small picture a camera embeds in a JPEG's EXIF data (one Range request), else the file is downloaded
            and thumbnailed here. Thumbnails are kept in the cache for an hour: showing a folder again makes no
            request. Each goes to DIR/NAME.thumb.jpg; an existing one is replaced only with --force.
            """,
        options: [
            OptionSpec(
                ["--output", "-o"], .value(placeholder: "DIR"),
                help: "folder for the thumbnails (default: the current folder)"),
            OptionSpec(["--size"], .value(placeholder: "N"), help: "longest edge in pixels, 16 to 1024 (default 256)"),
            OptionSpec(["--force", "-f"], help: "replace existing thumbnail files"),
        ],
        positionals: [PositionalSpec("PATH", help: "a picture or a folder of them, local or officer:", variadic: true)])

    /// Thumbnails made at once: requests overlap, and libvips runs on threads of its own.
    static let width = 4

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        var size = 256
        if let text = parsed.value("size") {
            guard let value = Int(text), Thumbnail.sizes.contains(value) else {
                throw ArgumentError.invalidValue(
                    option: "--size", value: text, reason: "a longest edge in pixels, 16 to 1024")
            }
            size = value
        }
        let folder = parsed.value("output") ?? FileManager.default.currentDirectoryPath
        try LocalFiles.makeOutputFolder(folder)
        let files = try context.files()
        let locations = try context.locations(parsed.positionals)
        for location in locations where try files.fixedFeatures(of: location).contains(.cached) {
            try context.announceCache(files)
            break
        }
        var sources: [Source] = []
        for location in locations {
            sources += try await expand(location, files)
        }
        // A folder without pictures is said, never a silent success.
        guard !sources.isEmpty else {
            throw CLIError.refused(
                "\(parsed.positionals.joined(separator: " ")): no pictures to make thumbnails of", .notFound)
        }
        let force = parsed.flag("force")
        let edge = size
        let outputs = Self.outputNames(for: sources)
        var failures: [any Error] = []
        var next = 0
        try await withThrowingTaskGroup(of: (Source, Result<(Thumbnail, String), any Error>).self) { group in
            func start() {
                guard next < sources.count else { return }
                let source = sources[next]
                let name = outputs[next]
                next += 1
                group.addTask {
                    do {
                        let thumbnail = try await files.thumbnailMade(of: source.location, size: edge)
                        let output = (folder as NSString).appendingPathComponent(name)
                        try AtomicFile.write(thumbnail.image.jpeg, to: output, replace: force)
                        return (source, .success((thumbnail, output)))
                    } catch {
                        return (source, .failure(error))
                    }
                }
            }
            for _ in 0..<width { start() }
            while let (source, outcome) = try await group.next() {
                start()
                switch outcome {
                case .success(let (thumbnail, output)):
                    let image = thumbnail.image
                    if context.global.json {
                        context.printJSON(
                            ImageRecord(
                                source: context.shownLocation(source.shown), destination: context.shownLocation(output),
                                width: image.width, height: image.height, size: Int64(image.jpeg.count),
                                origin: thumbnail.origin.rawValue))
                    } else {
                        context.say(
                            "\(source.shown) -> \(output): \(image.width)×\(image.height), \(ByteCountFormat.string(Int64(image.jpeg.count))) (\(describe(thumbnail.origin)))"
                        )
                    }
                case .failure(let error):
                    if Task.isCancelled { throw error }
                    if sources.count == 1 { throw error }
                    context.console.message("officer-files: " + context.describe(error))
                    failures.append(error)
                }
            }
        }
        if !failures.isEmpty { throw BatchRunner.summary(of: failures, total: sources.count) }
    }

    /// Each source's thumbnail name in the output folder, unique in the batch: `NAME.thumb.jpg` without the
    /// picture's extension, with it where two share a stem (`big.jpg` and `big.png`), and numbered where even
    /// that is shared (the same name in two folders), so no thumbnail of the run replaces another.
    static func outputNames(for sources: [Source]) -> [String] {
        let stems = Dictionary(grouping: sources.map(\.baseName), by: { $0 }).mapValues(\.count)
        var taken: Set<String> = []
        return sources.map { source in
            let stem = stems[source.baseName, default: 0] > 1 ? source.location.name : source.baseName
            var name = stem + ".thumb.jpg"
            var number = 2
            while !taken.insert(name).inserted {
                name = "\(stem)-\(number).thumb.jpg"
                number += 1
            }
            return name
        }
    }

    /// One picture to make a thumbnail of.
    struct Source: Sendable {
        var location: Location

        /// As the user wrote it.
        var shown: String { location.description }

        /// The name without its extension, for the output's.
        var baseName: String { (location.name as NSString).deletingPathExtension }
    }

    /// A file as itself; a folder (on any remote) as the pictures directly in it.
    static func expand(_ location: Location, _ files: OfficerFiles) async throws -> [Source] {
        // A picture's name is taken for a file without asking (a second look at it then makes no request).
        if !location.namesFolder, !location.isTopOfRoot {
            if Thumbnail.thumbnailable(location.name) { return [Source(location: location)] }
            if try await !files.stat(location).isFolder { return [Source(location: location)] }
        }
        return try await files.list(location).entries
            .filter { !$0.isFolder && !$0.name.hasPrefix(".") && Thumbnail.thumbnailable($0.name) }
            .sorted { $0.name < $1.name }
            .map { Source(location: $0.location) }
    }

    static func describe(_ origin: ThumbnailOrigin) -> String {
        switch origin {
        case .cache: "from the cache"
        case .server: "made by the server"
        case .embedded: "the camera's embedded thumbnail"
        case .rendered: "downloaded and made here"
        case .local: "made here"
        }
    }
}

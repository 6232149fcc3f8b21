import Foundation
import Officer

// Plug-ins an app brings, given to one front door (an Apple app's CryptoKit digests, UTType file types or ImageIO
// would go here): they are used for that front door's work, while another front door in the same process keeps
// the library's own. To make that visible, one front door's digests are all zeros and its file types a stamp of
// its own, another's images are "prepared" by copying them, and a third has none.

/// Digests that are all zeros: any check against a real SHA-256 fails.
struct ZeroHashing: Hashing {
    var name: String { "zeros" }
    func makeDigest(_ algorithm: DigestAlgorithm) -> any DigestContext {
        ZeroDigest(size: algorithm == .md5 ? 16 : algorithm == .sha1 ? 20 : 32)
    }
}

/// One all-zero digest.
final class ZeroDigest: DigestContext {
    let size: Int
    init(size: Int) { self.size = size }
    func update(_ bytes: UnsafeRawBufferPointer) {}
    func finalize() -> [UInt8] { Array(repeating: 0, count: size) }
}

/// Every file is "stamped".
struct StampedTypes: FileTypeDetecting {
    var libraryVersion: String { "stamps 1.0" }
    func describe(bytes: Data, mime: Bool) throws(MagicError) -> String {
        mime ? "application/x-stamped; charset=binary" : "stamped data"
    }
}

/// Images "prepared" by copying them as they are (an app's ImageIO would decode, resize and re-encode here).
struct CopiedImages: ImagePreparing {
    var libraryVersion: String { "copies 1.0" }
    var canWriteGIF: Bool { false }
    func mayGoUpUnchanged(_ input: String, options: ImagePreparationOptions) -> Bool { false }
    func outputFormat(for input: String, named target: String?, options: ImagePreparationOptions)
        throws(ImageError) -> ImageOutputFormat
    {
        input.lowercased().hasSuffix(".png") ? .png : .jpeg
    }
    func prepare(_ input: String, to output: String, named name: String?, options: ImagePreparationOptions)
        throws(ImageError) -> PreparedImage
    {
        do {
            try? FileManager.default.removeItem(atPath: output)
            try FileManager.default.copyItem(atPath: input, toPath: output)
            let bytes = try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int64 ?? 0
            let format = try outputFormat(for: input, named: name, options: options)
            return PreparedImage(path: output, format: format, width: 0, height: 0, bytes: bytes, usedOriginal: false)
        } catch let error as ImageError {
            throw error
        } catch {
            throw .writeFailed(file: output, message: "\(error)")
        }
    }
    func prepareFile(_ input: String, to output: String, overwrite: Bool, options: ImagePreparationOptions)
        throws(ImageError) -> PreparedImage
    {
        try prepare(input, to: output, named: nil, options: options)
    }
    func thumbnail(ofFile path: String, size: Int, shownAs: String?) throws -> ThumbnailImage {
        throw ImageError.notAvailable(file: shownAs ?? path)
    }
    func thumbnail(of embedded: ExifThumbnail, size: Int) throws -> ThumbnailImage {
        throw ImageError.notAvailable(file: "the embedded thumbnail")
    }
    func imageFacts(file path: String) -> FileFacts.ImageFacts? { nil }
    func imageFacts(source: any ByteSource, name: String) throws -> FileFacts.ImageFacts {
        throw ImageError.notAvailable(file: name)
    }
}

let environment = ProcessInfo.processInfo.environment
guard let server = environment["OFFICER_SERVER"], let email = environment["OFFICER_EMAIL"],
    let password = environment["OFFICER_PASSWORD"], CommandLine.arguments.count == 4
else {
    FileHandle.standardError.write(
        Data("usage: OFFICER_SERVER=… OFFICER_EMAIL=… OFFICER_PASSWORD=… own-plugins REMOTE-FILE LOCAL-FILE PNG\n".utf8)
    )
    exit(2)
}
let (remoteFile, localFile, picture) = (CommandLine.arguments[1], CommandLine.arguments[2], CommandLine.arguments[3])

/// A front door with `plugins`, signed in.
func frontDoor(_ plugins: Plugins) async throws -> OfficerFiles {
    var configuration = OfficerFiles.Configuration(server: server)
    configuration.plugins = plugins
    let files = try OfficerFiles(configuration: configuration)
    try await files.signIn(email: email, password: password)
    return files
}

func run() async throws {
    var digests = Plugins()
    digests.hashing = ZeroHashing()
    digests.fileTypes = StampedTypes()
    var images = Plugins()
    images.images = CopiedImages()
    let doors = [
        ("digests", try await frontDoor(digests)), ("images", try await frontDoor(images)),
        ("library", try await frontDoor(Plugins())),
    ]
    for (name, files) in doors {
        do {
            let facts = try await files.facts(of: try files.location(localFile))
            print("\(name) facts: \(facts.type.mime)")
        } catch {
            print("\(name) facts: \(error.category.rawValue)")
        }
        let destination = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("\(name).bin")
        do {
            let result = try await files.download(try files.location(remoteFile), to: destination).value
            print("\(name) download: \(result.bytes) bytes checked by \(result.checkedBy)")
        } catch {
            print("\(name) download: \(error.category.rawValue)")
        }
        let folder = try files.location((remoteFile as NSString).deletingLastPathComponent + "/\(name)/")
        _ = try await files.makeFolder(folder, parents: true)
        for outcome in try await files.upload(photos: [URL(fileURLWithPath: picture)], to: folder).value {
            let went = outcome.location.map { "\($0) \(outcome.result?.bytes ?? 0) bytes" }
            print("\(name) photo: \(went ?? outcome.failure?.category.rawValue ?? "-")")
        }
    }
}

do {
    try await run()
} catch {
    print("failed: \(error)")
    exit(1)
}

// officer-files-fuzz: libFuzzer targets over the code that reads untrusted bytes.
//
// Built with `scripts/fuzz` (`-sanitize=fuzzer,address -DFUZZING`), libFuzzer drives LLVMFuzzerTestOneInput.
// Built normally, the same binary replays inputs given as files, which is how crashes found once stay
// regression tests (Tests/Fixtures/fuzz/TARGET/). OFFICER_FUZZ_TARGET picks the target:
// archive, image, mime, json, headers, arguments.
import FileModel
import Foundation
import HTTP
import Officer
import OfficerFilesCLI
import OfficerLinux
import Preview
import Transfer

enum FuzzTarget: String, CaseIterable {
    case archive, image, mime, json, headers, arguments

    static let selected: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["OFFICER_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(
                Data("OFFICER_FUZZ_TARGET must be one of: \(allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
            exit(2)
        }
        return target
    }()

    /// A file for targets whose libraries read from paths, private to this process.
    static let scratch = NSTemporaryDirectory() + "/officer-fuzz-\(getpid())"

    func run(_ data: Data) {
        // The libraries fuzzed are the Linux plug-ins' (installing again is a lock and a store).
        LinuxPlugins.install()
        switch self {
        case .archive:
            let path = Self.scratch + ".archive"
            guard FileManager.default.createFile(atPath: path, contents: data) else { return }
            _ = try? ArchiveInspection.inspect(path)
            // The same bytes as a remote archive: the zip directory reader, then libarchive through callbacks.
            _ = try? ArchiveReader.inspect(source: MemorySource(data), name: "fuzz.zip")
            _ = try? ArchiveReader.read(member: "a", from: MemorySource(data), name: "fuzz.zip", limit: 1 << 20) { _ in
            }
        case .image:
            let input = Self.scratch + ".image"
            guard FileManager.default.createFile(atPath: input, contents: data) else { return }
            var options = ImagePreparationOptions()
            options.maxEdge = 64
            options.pixelLimit = 4_000_000
            let preparer = ImagePreparer(options: options)
            _ = try? preparer.outputFormat(for: input)
            _ = try? preparer.prepare(input, to: Self.scratch + ".out")
            // The portable position removal (no plug-in): hostile Exif offsets must never read or write outside.
            _ = try? JPEGPositionRemover.removingPosition(from: data, file: "fuzz.jpg")
            _ = JPEGPositionRemover.holdsPosition(data)
            // What a remote photo's first bytes and boxes give: the EXIF thumbnail, a HEIF's meta box.
            _ = ExifThumbnail.find(in: data)
            _ = try? HEIFMeta.read(MemorySource(data))
        case .mime:
            _ = try? FileTypeDetector().detect(bytes: data, name: "fuzz.bin")
        case .json:
            let decoder = JSONDecoder()
            _ = try? decoder.decode(DirectoryListing.self, from: data)
            _ = try? decoder.decode(TreePage.self, from: data)
            _ = try? decoder.decode(APIErrorBody.self, from: data)
            _ = try? decoder.decode(AITextResponse.self, from: data)
            _ = try? decoder.decode(AIFileResponse.self, from: data)
            if let page = try? decoder.decode(TreePage.self, from: data) {
                for entry in page.entries {
                    _ = SyncPath.relative(entryPath: entry.path, name: entry.name, below: page.path)
                }
            }
        case .headers:
            var headers = HTTPHeaders()
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
                headers.addRawLine(line + "\n")
            }
            _ = headers.contentRange
            _ = TusServerInfo(headers: headers)
            _ = headers["Last-Modified"].flatMap(HTTPDate.parse)
            _ = headers["Content-Length"].flatMap(ByteCountFormat.parse)
        case .arguments:
            let arguments = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
            _ = try? OfficerFilesApp.parser.parse(arguments)
            for argument in arguments { _ = try? RemotePath(parsing: argument) }
        }
    }
}

/// libFuzzer's entry point: one input for the target named by `OFFICER_FUZZ_TARGET`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzTarget.selected.run(Data(bytes: bytes, count: count))
    return 0
}

#if FUZZING
    /// libFuzzer's driver, called by name so the linker pulls it in (it is not exported for dlsym).
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    /// SwiftPM links every executable's entry point as `<target>_main` (aliased to `main`), so under libFuzzer that
    /// symbol hands over to libFuzzer's own driver.
    @_cdecl("officer_files_fuzz_main")
    public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        var count = argc
        var arguments = argv
        return runFuzzerDriver(&count, &arguments) { bytes, size in
            FuzzTarget.selected.run(bytes.map { Data(bytes: $0, count: size) } ?? Data())
            return 0
        }
    }
#else
    /// Without libFuzzer: replays each file named on the command line (a corpus or a crash) through the target.
    @main
    enum Replay {
        static func main() {
            var count = 0
            for argument in CommandLine.arguments.dropFirst() {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else { continue }
                let files =
                    isDirectory.boolValue
                    ? ((try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []).sorted().map {
                        argument + "/" + $0
                    } : [argument]
                for file in files {
                    guard let data = FileManager.default.contents(atPath: file) else { continue }
                    FuzzTarget.selected.run(data)
                    count += 1
                }
            }
            print("replayed \(count) inputs through \(FuzzTarget.selected.rawValue)")
        }
    }
#endif

/// Bytes in memory as a ``ByteSource``, as a remote file read by ranges would give them.
final class MemorySource: ByteSource {
    let data: Data
    init(_ data: Data) { self.data = data }
    var size: Int64 { Int64(data.count) }
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard offset < size else { return 0 }
        let count = min(buffer.count, data.count - Int(offset))
        data.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + Int(offset), byteCount: count) }
        return count
    }
}

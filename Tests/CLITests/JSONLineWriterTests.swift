import Foundation
import OfficerLinux
import Preview
import Testing

@testable import OfficerFilesCLI

/// `info --json` writes its lines directly: they must be what `JSONEncoder` (sorted keys, slashes as they are)
/// writes of the same record, character for character.
@Suite struct JSONLineWriterTests {
    init() { LinuxPlugins.install() }

    @Test func factsLinesAreWhatTheEncoderWrites() throws {
        var facts = try FileFacts(
            prefix: Data("# Title\n".utf8), name: "n.md", path: "n.md", size: 8, modificationTime: 1_700_000_000.125,
            mode: 0o644)
        var variants = [facts]
        facts.description = "quote \" back \\ slash / tab\t nl\n cr\r bs\u{08} ff\u{0C} bell\u{07} unit\u{1F} é 😀"
        facts.firstLines = ["a\u{01}b", "", "ü"]
        facts.lines = 12
        facts.pdfPages = 3
        facts.mode = nil
        facts.image = .init(
            width: 3, height: 4, orientation: 6, camera: "Cam \"X\"", taken: "2024:01:02 10:00:00", hasGPS: true,
            latitude: -33.8688, longitude: 151.2093)
        variants.append(facts)
        for (latitude, longitude) in [(1.0, -0.5), (1e-7, 123_456_789_012.5), (0.1 + 0.2, 1e21), (-0.0, 89.99999999)] {
            facts.image?.latitude = latitude
            facts.image?.longitude = longitude
            variants.append(facts)
        }
        facts.image = .init(width: 1, height: 1, orientation: 1, camera: nil, taken: nil, hasGPS: false)
        facts.mtime = -1.5
        variants.append(facts)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for facts in variants {
            let record = FactsRecord(facts, path: "/tmp/a \"b\"/ü")
            #expect(record.jsonLine == String(decoding: try encoder.encode(record), as: UTF8.self))
        }
    }

    /// A path `info --json` names as given (absolute, nothing to resolve) and one it resolves, told by byte as
    /// Foundation's URL would have them.
    @Test func pathsNeedingNoResolvingAreToldByByte() {
        for path in ["/a", "/a/b.txt", "/.../x", "/a/.b", "/a/..b"] {
            #expect(CommandContext.isStandardAbsolute(path), "\(path)")
            #expect(URL(fileURLWithPath: path).standardizedFileURL.path == path, "\(path)")
        }
        for path in ["/", "a", "", "/a/", "//a", "/a//b", "/./a", "/a/.", "/a/..", "/a/../b", "./a"] {
            #expect(!CommandContext.isStandardAbsolute(path), "\(path)")
        }
    }
}

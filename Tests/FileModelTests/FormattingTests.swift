import FileModel
import Foundation
import Testing

@Suite struct FormattingTests {
    static let byteCases: [(Int64, String)] = [
        (0, "0 B"), (1023, "1023 B"), (1024, "1.00 KiB"), (1536, "1.50 KiB"), (10_240, "10.0 KiB"),
        (1_048_575, "1.00 MiB"), (1_048_576, "1.00 MiB"), (128_974_848, "123 MiB"), (5_368_709_120, "5.00 GiB"),
        (-2048, "-2.00 KiB"),
    ]

    @Test(arguments: byteCases)
    func byteCounts(bytes: Int64, text: String) {
        #expect(ByteCountFormat.string(bytes) == text)
    }

    @Test func rates() {
        #expect(ByteCountFormat.rate(3 * 1_048_576) == "3.00 MiB/s")
        #expect(ByteCountFormat.rate(.nan) == "-- B/s")
    }

    static let sizeCases: [(String, Int64)] = [
        ("1048576", 1_048_576), ("512K", 524_288), ("1.5M", 1_572_864), ("2GiB", 2_147_483_648), ("10 MB", 10_485_760),
        ("7b", 7),
    ]

    @Test(arguments: sizeCases)
    func parsesSizes(text: String, bytes: Int64) {
        #expect(ByteCountFormat.parse(text) == bytes)
    }

    @Test func rejectsBadSizes() {
        for text in ["", "abc", "-5", "1Q", "1.2.3M"] { #expect(ByteCountFormat.parse(text) == nil, "\(text)") }
    }

    static let durationCases: [(Double, String)] = [
        (0, "0s"), (44.6, "45s"), (59.4, "59s"), (60, "1m00s"), (187, "3m07s"), (3600, "1h00m"), (7500, "2h05m"),
        (273_600, "3d04h"), (-1, "--"), (.infinity, "--"),
    ]

    @Test(arguments: durationCases)
    func durations(seconds: Double, text: String) {
        #expect(DurationFormat.string(seconds: seconds) == text)
    }

    @Test func preciseDurations() {
        #expect(DurationFormat.precise(seconds: 1.2345) == "1.235s")
        #expect(DurationFormat.precise(seconds: 75) == "1m15s")
    }

    @Test func fileEntryDecodesTheContractShape() throws {
        let json =
            #"{"name":"a.txt","path":"/d/a.txt","type":"file","size":5,"mtime":1700000000.25,"mode":420,"mime":"text/plain"}"#
        let entry = try JSONDecoder().decode(FileEntry.self, from: Data(json.utf8))
        #expect(entry.size == 5 && entry.mode == 0o644 && !entry.isDirectory)
        #expect(entry.modified.timeIntervalSince1970 == 1_700_000_000.25)
        let folder = #"{"name":"d","path":"/d","type":"directory","size":0,"mtime":1}"#
        #expect(try JSONDecoder().decode(FileEntry.self, from: Data(folder.utf8)).isDirectory)
    }
}

@Suite struct HTTPDateTests {
    @Test func parsesAndFormatsIMFFixdates() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == 0)
        #expect(HTTPDate.format(951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
        for seconds in stride(from: 0.0, to: 4_000_000_000, by: 123_456_789) {
            #expect(HTTPDate.parse(HTTPDate.format(seconds)) == seconds.rounded(.down))
        }
    }

    /// RFC 3339 as S3 listings write it, read by hand: the same seconds Foundation's ISO 8601 formatter reads.
    @Test func readsRFC3339AsFoundationDoes() {
        #expect(HTTPDate.parseRFC3339("2026-11-30T12:00:00.500Z") == 1_796_040_000.5)
        #expect(HTTPDate.parseRFC3339("2026-11-30T13:00:00+01:00") == 1_796_040_000)
        #expect(HTTPDate.parseRFC3339("1970-01-01T00:00:00Z") == 0)
        let formatter = ISO8601DateFormatter()
        for seconds in stride(from: 0.0, to: 4_000_000_000, by: 86_413_957) {
            let text = formatter.string(from: Date(timeIntervalSince1970: seconds))
            #expect(HTTPDate.parseRFC3339(text) == seconds, "\(text)")
            #expect(
                HTTPDate.basicStamp(seconds)
                    == text.replacingOccurrences(of: "-", with: "")
                    .replacingOccurrences(of: ":", with: ""))
        }
        for text in [
            "", "2026-11-30", "2026-11-30T12:00:00", "2026-13-30T12:00:00Z", "2026-11-30T12:00:00.Z",
            "2026-11-30T12:00:00Zjunk", "2026-11-30T12:00:00+0100", "２026-11-30T12:00:00Z",
        ] {
            #expect(HTTPDate.parseRFC3339(text) == nil, "\(text)")
        }
    }

    @Test func writesHexDigits() {
        #expect(HexDigits.lowercase([0x00, 0x0F, 0xA5, 0xFF]) == "000fa5ff")
        #expect(HexDigits.uppercase([0x00, 0x0F, 0xA5, 0xFF]) == "000FA5FF")
        #expect(HexDigits.lowercase([]) == "")
    }

    @Test func refusesOtherShapes() {
        for text in [
            "", "yesterday", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 32 Nov 1994 08:49:37 GMT",
        ] {
            #expect(HTTPDate.parse(text) == nil, "\(text)")
        }
    }
}

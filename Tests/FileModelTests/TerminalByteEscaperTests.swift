import FileModel
import Testing

@Suite struct TerminalByteEscaperTests {
    func shown(_ chunks: [[UInt8]]) -> String {
        var escaper = TerminalByteEscaper()
        var out: [UInt8] = []
        for chunk in chunks { out += escaper.escape(chunk) }
        out += escaper.finish()
        return String(decoding: out, as: UTF8.self)
    }

    @Test func escapesControlsAndKeepsLinesTabsAndText() {
        #expect(shown([Array("a\u{1B}[2Jb\tc\nd\r\u{7F}".utf8)]) == "a\\u001b[2Jb\tc\nd\\r\\u007f")
        #expect(shown([Array("größe ✓ 日本".utf8)]) == "größe ✓ 日本")
        // C1 controls and bidirectional overrides, as UTF-8.
        #expect(shown([Array("x\u{9B}y\u{202E}z".utf8)]) == "x\\u009by\\u202ez")
    }

    @Test func holdsACharacterSplitAcrossChunks() {
        let bytes = Array("é✓".utf8)
        #expect(shown([Array(bytes[0..<1]), Array(bytes[1..<3]), Array(bytes[3...])]) == "é✓")
    }

    @Test func showsBytesThatAreNotUTF8() {
        #expect(shown([[0x61, 0x9B, 0x62, 0xC3]]) == "a\\x9bb\\xc3")
        #expect(shown([[0xC0, 0x80]]) == "\\xc0\\x80")
        #expect(shown([[0xE2, 0x28, 0xA1]]) == "\\xe2(\\xa1")
    }
}

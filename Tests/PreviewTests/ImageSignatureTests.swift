import Testing

@testable import Preview

/// A failed image is named by the format its own first bytes show, never by what another image's failure said.
@Suite struct ImageSignatureTests {
    @Test func formatsByTheirFirstBytes() {
        #expect(ImageSignature.format(of: [0xFF, 0xD8, 0xFF, 0xE0]) == "JPEG")
        #expect(ImageSignature.format(of: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A]) == "PNG")
        #expect(ImageSignature.format(of: Array("GIF89a".utf8)) == "GIF")
        #expect(ImageSignature.format(of: Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == "WebP")
        #expect(ImageSignature.format(of: [0x49, 0x49, 0x2A, 0x00]) == "TIFF")
        #expect(ImageSignature.format(of: [0, 0, 0, 0x18] + Array("ftypheic".utf8)) == "HEIF")
        #expect(ImageSignature.format(of: Array("%PDF-1.4".utf8)) == nil)
        #expect(ImageSignature.format(of: []) == nil)
    }

    @Test func theFilesOwnFormatComesBeforeTheMessagesWords() {
        // A message that speaks of PNG (another image's failure, in libvips' one error buffer) about a JPEG.
        #expect(VipsError.format(in: "[JPEG] vips2png: unable to write to target") == "JPEG")
        #expect(VipsError.format(in: "VipsJpeg: Premature end of input file") == "JPEG")
        #expect(
            VipsError.loadFailed(file: "a.jpg", message: "[JPEG] pngload: libpng read error").wording
                == "a.jpg: damaged or truncated JPEG")
    }
}

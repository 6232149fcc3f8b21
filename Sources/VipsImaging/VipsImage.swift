import Foundation
import Preview

/// An owned libvips image. Opening reads only the header; pixels are decoded when an operation needs them.
package final class VipsImage {
    private let handle: OpaquePointer
    /// For an image read from a byte source: the callbacks' state, alive as long as the handle.
    private let cursor: ByteSourceCursor?

    private init(handle: OpaquePointer, cursor: ByteSourceCursor? = nil) {
        self.handle = handle
        self.cursor = cursor
    }

    /// Opens the header of an image whose bytes come from `source` (a remote file read by ranges): size,
    /// orientation and metadata without the pixels, reading only the parts of the file the format keeps
    /// them in. `name` names it in errors; a failure of the source is thrown as it is.
    package convenience init(source: any ByteSource, name: String) throws {
        try VipsRuntime.ensureInitialized()
        let cursor = ByteSourceCursor(source)
        guard let handle = VipsCalls.open(cursor: cursor) else {
            if let failure = cursor.failure { throw failure }
            throw VipsError.loadFailed(file: name, message: VipsCalls.lastError())
        }
        self.init(handle: handle, cursor: cursor)
    }

    deinit { VipsCalls.release(handle) }

    /// Opens `path`, failing on decode errors rather than producing garbage.
    ///
    /// `sequential` streams a single top-to-bottom pass in little memory; leave it off to run several operations.
    package convenience init(contentsOf path: String, sequential: Bool = false) throws(VipsError) {
        try VipsRuntime.ensureInitialized()
        guard let handle = VipsCalls.open(path, sequential: sequential, failOnError: true) else {
            throw .loadFailed(file: path, message: VipsError.message(VipsCalls.lastError(), about: path))
        }
        self.init(handle: handle)
    }

    /// A black image of the given size, for tests and fixtures.
    package static func black(width: Int, height: Int, bands: Int = 3) throws(VipsError) -> VipsImage {
        try VipsRuntime.ensureInitialized()
        guard let handle = VipsCalls.black(width: Int32(width), height: Int32(height), bands: Int32(bands)) else {
            throw .operationFailed(operation: "black", message: VipsCalls.lastError())
        }
        return VipsImage(handle: handle)
    }

    /// A thumbnail of the file no larger than `maxEdge` on either side, made with shrink-on-load, never
    /// upsized, EXIF orientation applied, and with `exportSRGB` converted to sRGB; decode errors fail it.
    package static func thumbnail(of path: String, maxEdge: Int, exportSRGB: Bool = true) throws(VipsError) -> VipsImage
    {
        try VipsRuntime.ensureInitialized()
        guard let handle = VipsCalls.thumbnail(path, maxEdge: Int32(maxEdge), exportSRGB: exportSRGB) else {
            throw .loadFailed(file: path, message: VipsError.message(VipsCalls.lastError(), about: path))
        }
        return VipsImage(handle: handle)
    }

    /// The image turned and mirrored as EXIF `orientation` (1–8) says it is to be shown: for a picture that
    /// does not carry the orientation itself (a camera's embedded thumbnail).
    package func oriented(_ orientation: Int) throws(VipsError) -> VipsImage {
        // Orientations 2, 4, 5, 7 are mirrored: flipped, then turned as their unmirrored twin.
        let quarters: Int32 = [1: 0, 2: 0, 3: 2, 4: 2, 5: 3, 6: 1, 7: 1, 8: 3][orientation] ?? 0
        var current = self
        if [2, 4, 5, 7].contains(orientation) {
            guard let flipped = VipsCalls.flipHorizontal(current.handle) else {
                throw .operationFailed(operation: "flip", message: VipsCalls.lastError())
            }
            current = VipsImage(handle: flipped)
        }
        guard quarters != 0 else { return current }
        guard let turned = VipsCalls.rotate(current.handle, quarters: quarters) else {
            throw .operationFailed(operation: "rot", message: VipsCalls.lastError())
        }
        return VipsImage(handle: turned)
    }

    /// The libvips loader that read the file (`jpegload`, `pngload`, `heifload`, …).
    package var loader: String? { VipsCalls.string(handle, "vips-loader") }
    /// True when the image has an alpha channel.
    package var hasAlpha: Bool { VipsCalls.hasAlpha(handle) }
    /// True when the image embeds an ICC colour profile.
    package var hasColourProfile: Bool { VipsCalls.hasField(handle, "icc-profile-data") }
    /// True for CMYK images.
    package var isCMYK: Bool { VipsCalls.isCMYK(handle) }
    /// The EXIF orientation (1 when absent).
    package var orientation: Int { Int(VipsCalls.int(handle, "orientation", fallback: 1)) }
    /// True when the image carries EXIF, XMP or IPTC metadata (where GPS positions live).
    package var hasMetadata: Bool {
        ["exif-data", "xmp-data", "iptc-data"].contains { VipsCalls.hasField(handle, $0) }
    }
    /// True when the EXIF data carries a GPS position.
    package var hasGPS: Bool { VipsCalls.hasField(handle, "exif-ifd3-GPSLatitude") }
    /// True when the metadata may hold a position: EXIF GPS, or XMP (which can carry one too).
    package var mayHoldPosition: Bool { hasGPS || VipsCalls.hasField(handle, "xmp-data") }
    /// A metadata string field, e.g. `exif-ifd0-Model`.
    package func string(_ field: String) -> String? { VipsCalls.string(handle, field) }

    /// Writes the image as WebP.
    package func writeWebP(to path: String, quality: Int = 85, stripMetadata: Bool = true) throws(VipsError) {
        guard VipsCalls.saveWebP(handle, to: path, quality: Int32(quality), strip: stripMetadata) else {
            throw .saveFailed(file: path, message: VipsCalls.lastError())
        }
    }

    /// Writes the image as TIFF (deflate-compressed).
    package func writeTIFF(to path: String, stripMetadata: Bool = true) throws(VipsError) {
        guard VipsCalls.saveTIFF(handle, to: path, strip: stripMetadata) else {
            throw .saveFailed(file: path, message: VipsCalls.lastError())
        }
    }

    /// Whether this libvips writes GIF (it needs cgif).
    package static var canWriteGIF: Bool { (try? VipsRuntime.ensureInitialized()) != nil && VipsCalls.canSaveGIF }

    /// Writes the image as GIF.
    package func writeGIF(to path: String, stripMetadata: Bool = true) throws(VipsError) {
        guard VipsCalls.saveGIF(handle, to: path, strip: stripMetadata) else {
            throw .saveFailed(file: path, message: VipsCalls.lastError())
        }
    }

    /// The image with any transparency composited onto white (for a JPEG, which has none); itself without alpha.
    package func flattenedOntoWhite() throws(VipsError) -> VipsImage {
        guard hasAlpha else { return self }
        guard let flat = VipsCalls.flattenOntoWhite(handle) else {
            throw .operationFailed(operation: "flatten", message: VipsCalls.lastError())
        }
        return VipsImage(handle: flat)
    }

    /// Writes the image as an 8-bit PNG.
    package func writePNG8(to path: String, stripMetadata: Bool = true) throws(VipsError) {
        guard VipsCalls.savePNG8(handle, to: path, strip: stripMetadata) else {
            throw .saveFailed(file: path, message: VipsCalls.lastError())
        }
    }

    /// Width in pixels.
    package var width: Int { Int(VipsCalls.width(handle)) }
    /// Height in pixels.
    package var height: Int { Int(VipsCalls.height(handle)) }
    /// Number of bands (3 for RGB, 4 with alpha).
    package var bands: Int { Int(VipsCalls.bands(handle)) }

    /// The mean pixel value over all bands; decodes the whole image.
    package func average() throws(VipsError) -> Double {
        guard let value = VipsCalls.average(handle) else {
            throw .operationFailed(operation: "avg", message: VipsCalls.lastError())
        }
        return value
    }

    /// Writes the image as PNG, metadata stripped.
    package func writePNG(to path: String) throws(VipsError) {
        guard VipsCalls.savePNG(handle, to: path) else { throw .saveFailed(file: path, message: VipsCalls.lastError()) }
    }

    /// Writes the image as JPEG with optimized coding.
    package func writeJPEG(to path: String, quality: Int = 85, stripMetadata: Bool = true, progressive: Bool = false)
        throws(VipsError)
    {
        guard
            VipsCalls.saveJPEG(
                handle, to: path, quality: Int32(quality), strip: stripMetadata, progressive: progressive)
        else {
            throw .saveFailed(file: path, message: VipsCalls.lastError())
        }
    }
}

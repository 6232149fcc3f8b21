/// An owned libvips image. Opening reads only the header; pixels are decoded when an operation needs them.
public final class VipsImage {
    private let handle: OpaquePointer

    private init(handle: OpaquePointer) { self.handle = handle }

    deinit { VipsCalls.release(handle) }

    /// Opens `path`, failing on decode errors rather than producing garbage.
    ///
    /// `sequential` streams a single top-to-bottom pass in little memory; leave it off to run several operations.
    public convenience init(contentsOf path: String, sequential: Bool = false) throws(VipsError) {
        try VipsRuntime.ensureInitialized()
        guard let handle = VipsCalls.open(path, sequential: sequential, failOnError: true) else {
            throw .loadFailed(file: path, message: VipsCalls.lastError())
        }
        self.init(handle: handle)
    }

    /// A black image of the given size, for tests and fixtures.
    public static func black(width: Int, height: Int, bands: Int = 3) throws(VipsError) -> VipsImage {
        try VipsRuntime.ensureInitialized()
        guard let handle = VipsCalls.black(width: Int32(width), height: Int32(height), bands: Int32(bands)) else {
            throw .operationFailed(operation: "black", message: VipsCalls.lastError())
        }
        return VipsImage(handle: handle)
    }

    /// Width in pixels.
    public var width: Int { Int(VipsCalls.width(handle)) }
    /// Height in pixels.
    public var height: Int { Int(VipsCalls.height(handle)) }
    /// Number of bands (3 for RGB, 4 with alpha).
    public var bands: Int { Int(VipsCalls.bands(handle)) }

    /// The mean pixel value over all bands; decodes the whole image.
    public func average() throws(VipsError) -> Double {
        guard let value = VipsCalls.average(handle) else {
            throw .operationFailed(operation: "avg", message: VipsCalls.lastError())
        }
        return value
    }

    /// Writes the image as PNG, metadata stripped.
    public func writePNG(to path: String) throws(VipsError) {
        guard VipsCalls.savePNG(handle, to: path) else { throw .saveFailed(file: path, message: VipsCalls.lastError()) }
    }

    /// Writes the image as JPEG with optimized coding.
    public func writeJPEG(to path: String, quality: Int = 85, stripMetadata: Bool = true) throws(VipsError) {
        guard VipsCalls.saveJPEG(handle, to: path, quality: Int32(quality), strip: stripMetadata) else {
            throw .saveFailed(file: path, message: VipsCalls.lastError())
        }
    }
}

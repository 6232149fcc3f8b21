import CVips
import Preview

/// Every libvips call the libvips plug-in makes, in one place. libvips is loaded with dlopen on first use and reached
/// through a table of resolved symbols (see `shim.h`); variadic `vips_*` calls go through fixed wrappers.
enum VipsCalls {
    typealias Image = UnsafeMutablePointer<CVips.VipsImage>

    // Written once by `load()` (run from VipsRuntime's one-time initializer), read-only afterwards.
    nonisolated(unsafe) private static let api: UnsafeMutablePointer<officer_vips_api> = {
        let table = UnsafeMutablePointer<officer_vips_api>.allocate(capacity: 1)
        table.initialize(to: officer_vips_api())
        return table
    }()

    /// Loads libvips and resolves its symbols; nil on success, else why not.
    static func load() -> String? {
        officer_vips_load(api) == 0 ? nil : String(cString: officer_vips_load_error(api))
    }
    static func initialize() -> Int32 { officer_vips_init(api, "officer-files") }
    static func disableOperationCache() { officer_vips_cache_set_max(api, 0) }
    static func silenceWarnings() { officer_vips_silence_warnings(api) }
    static func blockUntrustedLoaders() { officer_vips_block_untrusted(api) }
    static func lastError() -> String {
        let message = officer_vips_error_buffer(api).map { String(cString: $0) } ?? ""
        officer_vips_error_clear(api)
        // libvips keeps one error buffer for the whole process; with images prepared in parallel it holds
        // other threads' lines too. The last line is the one our failed call just added.
        let last = message.split(separator: "\n").last.map(String.init) ?? ""
        return last.isEmpty ? "unknown libvips error" : last
    }
    static func version() -> String { String(cString: officer_vips_version_string(api)) }

    static func open(_ path: String, sequential: Bool, failOnError: Bool) -> OpaquePointer? {
        officer_vips_image_new_from_file(api, path, sequential ? 1 : 0, failOnError ? 1 : 0).map(OpaquePointer.init)
    }
    /// Opens the header of an image whose bytes `cursor` reads; the cursor must outlive the image.
    static func open(cursor: ByteSourceCursor) -> OpaquePointer? {
        let context = Unmanaged.passUnretained(cursor).toOpaque()
        return officer_vips_image_new_from_callbacks(
            api,
            { _, buffer, length, context in
                gint64(
                    Unmanaged<ByteSourceCursor>.fromOpaque(context!).takeUnretainedValue().read(
                        into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(length))))
            },
            { _, offset, whence, context in
                gint64(
                    Unmanaged<ByteSourceCursor>.fromOpaque(context!).takeUnretainedValue().seek(
                        Int64(offset), whence: whence))
            },
            context
        ).map(OpaquePointer.init)
    }
    static func black(width: Int32, height: Int32, bands: Int32) -> OpaquePointer? {
        var out: Image?
        guard officer_vips_black(api, &out, width, height, bands) == 0 else { return nil }
        return out.map(OpaquePointer.init)
    }
    static func release(_ image: OpaquePointer) { officer_g_object_unref(api, Image(image)) }
    static func width(_ image: OpaquePointer) -> Int32 { officer_vips_image_get_width(api, Image(image)) }
    static func height(_ image: OpaquePointer) -> Int32 { officer_vips_image_get_height(api, Image(image)) }
    static func bands(_ image: OpaquePointer) -> Int32 { officer_vips_image_get_bands(api, Image(image)) }
    static func average(_ image: OpaquePointer) -> Double? {
        var value = 0.0
        return officer_vips_avg(api, Image(image), &value) == 0 ? value : nil
    }
    static func savePNG(_ image: OpaquePointer, to path: String) -> Bool {
        officer_vips_pngsave(api, Image(image), path, 6, 1) == 0
    }
    static func saveJPEG(
        _ image: OpaquePointer, to path: String, quality: Int32, strip: Bool, progressive: Bool = false
    ) -> Bool {
        officer_vips_jpegsave_full(api, Image(image), path, quality, strip ? 1 : 0, progressive ? 1 : 0) == 0
    }
    static func savePNG8(_ image: OpaquePointer, to path: String, strip: Bool) -> Bool {
        officer_vips_pngsave_8bit(api, Image(image), path, strip ? 1 : 0) == 0
    }
    static func saveWebP(_ image: OpaquePointer, to path: String, quality: Int32, strip: Bool) -> Bool {
        officer_vips_webpsave(api, Image(image), path, quality, strip ? 1 : 0) == 0
    }
    static func saveTIFF(_ image: OpaquePointer, to path: String, strip: Bool) -> Bool {
        officer_vips_tiffsave(api, Image(image), path, strip ? 1 : 0) == 0
    }
    static var canSaveGIF: Bool { officer_vips_can_save_gif(api) != 0 }
    static func saveGIF(_ image: OpaquePointer, to path: String, strip: Bool) -> Bool {
        officer_vips_gifsave(api, Image(image), path, strip ? 1 : 0) == 0
    }
    static func flattenOntoWhite(_ image: OpaquePointer) -> OpaquePointer? {
        var out: Image?
        guard officer_vips_flatten_white(api, Image(image), &out) == 0 else { return nil }
        return out.map(OpaquePointer.init)
    }
    static func thumbnail(_ path: String, maxEdge: Int32, exportSRGB: Bool) -> OpaquePointer? {
        var out: Image?
        guard officer_vips_thumbnail(api, path, &out, maxEdge, maxEdge, 1, 1, exportSRGB ? 1 : 0) == 0 else {
            return nil
        }
        return out.map(OpaquePointer.init)
    }
    static func rotate(_ image: OpaquePointer, quarters: Int32) -> OpaquePointer? {
        var out: Image?
        guard officer_vips_rot(api, Image(image), &out, quarters) == 0 else { return nil }
        return out.map(OpaquePointer.init)
    }
    static func flipHorizontal(_ image: OpaquePointer) -> OpaquePointer? {
        var out: Image?
        guard officer_vips_flip_horizontal(api, Image(image), &out) == 0 else { return nil }
        return out.map(OpaquePointer.init)
    }
    static func hasField(_ image: OpaquePointer, _ name: String) -> Bool {
        officer_vips_has_field(api, Image(image), name) != 0
    }
    static func string(_ image: OpaquePointer, _ name: String) -> String? {
        officer_vips_get_string(api, Image(image), name).map { String(cString: $0) }
    }
    static func int(_ image: OpaquePointer, _ name: String, fallback: Int32) -> Int32 {
        officer_vips_get_int(api, Image(image), name, fallback)
    }
    static func hasAlpha(_ image: OpaquePointer) -> Bool { officer_vips_has_alpha(api, Image(image)) != 0 }
    static func isCMYK(_ image: OpaquePointer) -> Bool { officer_vips_is_cmyk(api, Image(image)) != 0 }
}

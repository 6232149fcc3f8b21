import CVips

/// Every libvips call Preview makes, in one place. libvips is loaded with dlopen on first use and reached
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
        let trimmed = message.split(separator: "\n").joined(separator: "; ")
        return trimmed.isEmpty ? "unknown libvips error" : trimmed
    }
    static func version() -> String { String(cString: officer_vips_version_string(api)) }

    static func open(_ path: String, sequential: Bool, failOnError: Bool) -> OpaquePointer? {
        officer_vips_image_new_from_file(api, path, sequential ? 1 : 0, failOnError ? 1 : 0).map(OpaquePointer.init)
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
    static func saveJPEG(_ image: OpaquePointer, to path: String, quality: Int32, strip: Bool) -> Bool {
        officer_vips_jpegsave(api, Image(image), path, quality, 1, strip ? 1 : 0) == 0
    }
}

import CVips

/// Every libvips call Preview makes, in one place. Variadic `vips_*` calls go through `shim.h`.
enum VipsCalls {
    static func initialize() -> Int32 { officer_vips_init("officer-files") }
    static func disableOperationCache() { vips_cache_set_max(0) }
    static func silenceWarnings() { officer_vips_silence_warnings() }
    static func blockUntrustedLoaders() { vips_block_untrusted_set(1) }
    static func lastError() -> String {
        let message = vips_error_buffer().map { String(cString: $0) } ?? ""
        vips_error_clear()
        let trimmed = message.split(separator: "\n").joined(separator: "; ")
        return trimmed.isEmpty ? "unknown libvips error" : trimmed
    }
    static func version() -> String { String(cString: vips_version_string()) }

    static func open(_ path: String, sequential: Bool, failOnError: Bool) -> OpaquePointer? {
        officer_vips_image_new_from_file(path, sequential ? 1 : 0, failOnError ? 1 : 0).map(OpaquePointer.init)
    }
    static func black(width: Int32, height: Int32, bands: Int32) -> OpaquePointer? {
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        guard officer_vips_black(&out, width, height, bands) == 0 else { return nil }
        return out.map(OpaquePointer.init)
    }
    static func release(_ image: OpaquePointer) { officer_g_object_unref(UnsafeMutablePointer<CVips.VipsImage>(image)) }
    static func width(_ image: OpaquePointer) -> Int32 { vips_image_get_width(UnsafeMutablePointer<CVips.VipsImage>(image)) }
    static func height(_ image: OpaquePointer) -> Int32 { vips_image_get_height(UnsafeMutablePointer<CVips.VipsImage>(image)) }
    static func bands(_ image: OpaquePointer) -> Int32 { vips_image_get_bands(UnsafeMutablePointer<CVips.VipsImage>(image)) }
    static func average(_ image: OpaquePointer) -> Double? {
        var value = 0.0
        return officer_vips_avg(UnsafeMutablePointer<CVips.VipsImage>(image), &value) == 0 ? value : nil
    }
    static func savePNG(_ image: OpaquePointer, to path: String) -> Bool {
        officer_vips_pngsave(UnsafeMutablePointer<CVips.VipsImage>(image), path, 6, 1) == 0
    }
    static func saveJPEG(_ image: OpaquePointer, to path: String, quality: Int32, strip: Bool) -> Bool {
        officer_vips_jpegsave(UnsafeMutablePointer<CVips.VipsImage>(image), path, quality, 1, strip ? 1 : 0) == 0
    }
}

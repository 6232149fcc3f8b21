#ifndef OFFICER_CVIPS_SHIM_H
#define OFFICER_CVIPS_SHIM_H
/* Fixed-arity wrappers for the NULL-terminated vips_* calls: Swift cannot call C variadics,
   and naming each optional argument here keeps the option set explicit and type-checked. */
#include <vips/vips.h>

static inline int officer_vips_init(const char *argv0) { return VIPS_INIT(argv0); }

static void officer_vips_discard_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}
/* libvips also prints warnings to stderr through GLib; failures reach us through its error buffer,
   so the stray lines are dropped and the CLI keeps its one-line errors. */
static inline void officer_vips_silence_warnings(void) {
    g_log_set_handler("VIPS", (GLogLevelFlags)(G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO),
                      officer_vips_discard_log, NULL);
}

/* Header-only open: pixels are decoded lazily, so width/height come without a full decode.
   Sequential access streams one top-to-bottom pass in little memory; random access allows several passes. */
static inline VipsImage *officer_vips_image_new_from_file(const char *path, int sequential, int fail_on_error) {
    return vips_image_new_from_file(path, "access", sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM,
                                    "fail_on", fail_on_error ? VIPS_FAIL_ON_ERROR : VIPS_FAIL_ON_NONE, NULL);
}
static inline int officer_vips_black(VipsImage **out, int width, int height, int bands) {
    return vips_black(out, width, height, "bands", bands, NULL);
}
static inline int officer_vips_thumbnail(const char *path, VipsImage **out, int width, int height, int no_upsize,
                                         int fail_on_error) {
    return vips_thumbnail(path, out, width, "height", height,
                          "size", no_upsize ? VIPS_SIZE_DOWN : VIPS_SIZE_BOTH,
                          "export_profile", "srgb",
                          "fail_on", fail_on_error ? VIPS_FAIL_ON_ERROR : VIPS_FAIL_ON_NONE, NULL);
}
static inline int officer_vips_jpegsave(VipsImage *in, const char *path, int quality, int optimize, int strip) {
    return vips_jpegsave(in, path, "Q", quality, "optimize_coding", optimize, "strip", strip, NULL);
}
static inline int officer_vips_pngsave(VipsImage *in, const char *path, int compression, int strip) {
    return vips_pngsave(in, path, "compression", compression, "strip", strip, NULL);
}
static inline int officer_vips_webpsave(VipsImage *in, const char *path, int quality, int strip) {
    return vips_webpsave(in, path, "Q", quality, "strip", strip, NULL);
}
static inline int officer_vips_autorot(VipsImage *in, VipsImage **out) { return vips_autorot(in, out, NULL); }
static inline int officer_vips_avg(VipsImage *in, double *out) { return vips_avg(in, out, NULL); }
static inline void officer_g_object_unref(VipsImage *image) { g_object_unref(image); }
#endif

#ifndef OFFICER_CVIPS_SHIM_H
#define OFFICER_CVIPS_SHIM_H
/* libvips and its hundred dependencies cost ~20 MiB of resident memory and milliseconds of start-up
   in every process that links them, though only image work needs them. So libvips is not linked: it is
   loaded with dlopen on first use, and every call goes through a table of resolved symbols.
   Variadic (NULL-terminated) vips_* calls get fixed-arity wrappers: Swift cannot call C variadics,
   and naming each optional argument here keeps the option set explicit and type-checked. */
#include <dlfcn.h>
#include <stddef.h>
#include <vips/vips.h>

#define OFFICER_VIPS_SONAME "libvips.so.42"

typedef struct {
    int state; /* 0: not tried, 1: loaded, -1: failed */
    char error[512];
    int (*init)(const char *);
    int (*version)(int);
    void (*cache_set_max)(int);
    void (*block_untrusted_set)(gboolean);
    const char *(*error_buffer)(void);
    void (*error_clear)(void);
    const char *(*version_string)(void);
    VipsImage *(*image_new_from_file)(const char *, ...);
    int (*black)(VipsImage **, int, int, ...);
    int (*thumbnail)(const char *, VipsImage **, int, ...);
    int (*jpegsave)(VipsImage *, const char *, ...);
    int (*pngsave)(VipsImage *, const char *, ...);
    int (*webpsave)(VipsImage *, const char *, ...);
    int (*autorot)(VipsImage *, VipsImage **, ...);
    int (*avg)(VipsImage *, double *, ...);
    int (*image_get_width)(const VipsImage *);
    int (*image_get_height)(const VipsImage *);
    int (*image_get_bands)(const VipsImage *);
    void (*object_unref)(gpointer);
    GType (*image_get_typeof)(const VipsImage *, const char *);
    int (*image_get_string)(const VipsImage *, const char *, const char **);
    int (*image_get_int)(const VipsImage *, const char *, int *);
    gboolean (*image_hasalpha)(VipsImage *);
    VipsInterpretation (*image_guess_interpretation)(const VipsImage *);
    guint (*log_set_handler)(const gchar *, GLogLevelFlags, GLogFunc, gpointer);
    VipsSourceCustom *(*source_custom_new)(void);
    gulong (*signal_connect_data)(gpointer, const gchar *, GCallback, gpointer, GClosureNotify, GConnectFlags);
    VipsImage *(*image_new_from_source)(VipsSource *, const char *, ...);
    int (*rot)(VipsImage *, VipsImage **, VipsAngle, ...);
    int (*flip)(VipsImage *, VipsImage **, VipsDirection, ...);
    int (*tiffsave)(VipsImage *, const char *, ...);
    int (*gifsave)(VipsImage *, const char *, ...); /* NULL where libvips was built without cgif */
    int (*flatten)(VipsImage *, VipsImage **, ...);
    VipsArrayDouble *(*array_double_new)(const double *, int);
    void (*area_unref)(VipsArea *);
} officer_vips_api;

/* The table lives in Swift (one per process) and is passed to every wrapper: a C global in a header
   would have no definition, since Swift emits only the inline functions of an imported header. */

static void officer_vips_discard_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

/* Loads libvips and resolves every symbol; 0 on success. Call once (Swift does, from a static let). */
static inline int officer_vips_load(officer_vips_api *api) {
    if (api->state != 0) return api->state == 1 ? 0 : -1;
    /* Lazy binding: of the hundred libraries libvips pulls in, only the symbols really called get resolved. */
    void *h = dlopen(OFFICER_VIPS_SONAME, RTLD_LAZY | RTLD_GLOBAL);
    if (!h) {
        snprintf(api->error, sizeof api->error, "%s", dlerror());
        api->state = -1;
        return -1;
    }
#define OFFICER_VIPS_BIND(field, symbol)                                                              \
    if (!(*(void **)(&api->field) = dlsym(h, symbol))) {                                    \
        snprintf(api->error, sizeof api->error, "%s lacks %s", OFFICER_VIPS_SONAME, symbol); \
        api->state = -1;                                                                     \
        return -1;                                                                                   \
    }
    OFFICER_VIPS_BIND(init, "vips_init")
    OFFICER_VIPS_BIND(version, "vips_version")
    OFFICER_VIPS_BIND(cache_set_max, "vips_cache_set_max")
    OFFICER_VIPS_BIND(block_untrusted_set, "vips_block_untrusted_set")
    OFFICER_VIPS_BIND(error_buffer, "vips_error_buffer")
    OFFICER_VIPS_BIND(error_clear, "vips_error_clear")
    OFFICER_VIPS_BIND(version_string, "vips_version_string")
    OFFICER_VIPS_BIND(image_new_from_file, "vips_image_new_from_file")
    OFFICER_VIPS_BIND(black, "vips_black")
    OFFICER_VIPS_BIND(thumbnail, "vips_thumbnail")
    OFFICER_VIPS_BIND(jpegsave, "vips_jpegsave")
    OFFICER_VIPS_BIND(pngsave, "vips_pngsave")
    OFFICER_VIPS_BIND(webpsave, "vips_webpsave")
    OFFICER_VIPS_BIND(autorot, "vips_autorot")
    OFFICER_VIPS_BIND(avg, "vips_avg")
    OFFICER_VIPS_BIND(image_get_width, "vips_image_get_width")
    OFFICER_VIPS_BIND(image_get_height, "vips_image_get_height")
    OFFICER_VIPS_BIND(image_get_bands, "vips_image_get_bands")
    OFFICER_VIPS_BIND(object_unref, "g_object_unref")
    OFFICER_VIPS_BIND(log_set_handler, "g_log_set_handler")
    OFFICER_VIPS_BIND(image_get_typeof, "vips_image_get_typeof")
    OFFICER_VIPS_BIND(image_get_string, "vips_image_get_string")
    OFFICER_VIPS_BIND(image_get_int, "vips_image_get_int")
    OFFICER_VIPS_BIND(image_hasalpha, "vips_image_hasalpha")
    OFFICER_VIPS_BIND(image_guess_interpretation, "vips_image_guess_interpretation")
    OFFICER_VIPS_BIND(source_custom_new, "vips_source_custom_new")
    OFFICER_VIPS_BIND(signal_connect_data, "g_signal_connect_data")
    OFFICER_VIPS_BIND(image_new_from_source, "vips_image_new_from_source")
    OFFICER_VIPS_BIND(rot, "vips_rot")
    OFFICER_VIPS_BIND(flip, "vips_flip")
    OFFICER_VIPS_BIND(tiffsave, "vips_tiffsave")
    OFFICER_VIPS_BIND(flatten, "vips_flatten")
    OFFICER_VIPS_BIND(array_double_new, "vips_array_double_new")
    OFFICER_VIPS_BIND(area_unref, "vips_area_unref")
#undef OFFICER_VIPS_BIND
    *(void **)(&api->gifsave) = dlsym(h, "vips_gifsave");
    /* The ABI check VIPS_INIT makes, against the headers we were built with. */
    if (api->version(3) - api->version(5) != VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE) {
        snprintf(api->error, sizeof api->error, "libvips ABI %d, built for %d",
                 api->version(3) - api->version(5), VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE);
        api->state = -1;
        return -1;
    }
    api->state = 1;
    return 0;
}
static inline const char *officer_vips_load_error(const officer_vips_api *api) { return api->error; }

static inline int officer_vips_init(const officer_vips_api *api, const char *argv0) { return api->init(argv0); }
static inline void officer_vips_cache_set_max(const officer_vips_api *api, int max) { api->cache_set_max(max); }
static inline void officer_vips_block_untrusted(const officer_vips_api *api) { api->block_untrusted_set(TRUE); }
static inline const char *officer_vips_error_buffer(const officer_vips_api *api) { return api->error_buffer(); }
static inline void officer_vips_error_clear(const officer_vips_api *api) { api->error_clear(); }
static inline const char *officer_vips_version_string(const officer_vips_api *api) { return api->version_string(); }

/* libvips also prints warnings to stderr through GLib; failures reach us through its error buffer,
   so the stray lines are dropped and the CLI keeps its one-line errors. */
static inline void officer_vips_silence_warnings(const officer_vips_api *api) {
    api->log_set_handler("VIPS", (GLogLevelFlags)(G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO),
                                 officer_vips_discard_log, NULL);
}

/* Header-only open: pixels are decoded lazily, so width/height come without a full decode.
   Sequential access streams one top-to-bottom pass in little memory; random access allows several passes. */
static inline VipsImage *officer_vips_image_new_from_file(const officer_vips_api *api, const char *path, int sequential, int fail_on_error) {
    return api->image_new_from_file(path, "access", sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM,
                                            "fail_on", fail_on_error ? VIPS_FAIL_ON_ERROR : VIPS_FAIL_ON_NONE, NULL);
}
/* Header-only open of bytes that come through callbacks (a remote file read by ranges): `read` fills up to
   `length` bytes and returns how many (0 at the end, -1 on failure), `seek` moves as lseek does. The image
   holds the source; `context` must outlive the image. */
typedef gint64 (*officer_vips_read_fn)(VipsSourceCustom *, void *, gint64, void *);
typedef gint64 (*officer_vips_seek_fn)(VipsSourceCustom *, gint64, int, void *);
static inline VipsImage *officer_vips_image_new_from_callbacks(const officer_vips_api *api, officer_vips_read_fn read,
                                                               officer_vips_seek_fn seek, void *context) {
    VipsSourceCustom *source = api->source_custom_new();
    if (!source) return NULL;
    api->signal_connect_data(source, "read", G_CALLBACK(read), context, NULL, (GConnectFlags)0);
    api->signal_connect_data(source, "seek", G_CALLBACK(seek), context, NULL, (GConnectFlags)0);
    VipsImage *image = api->image_new_from_source((VipsSource *)source, "", "access", VIPS_ACCESS_SEQUENTIAL,
                                                  "fail_on", VIPS_FAIL_ON_NONE, NULL);
    api->object_unref(source);
    return image;
}
static inline int officer_vips_black(const officer_vips_api *api, VipsImage **out, int width, int height, int bands) {
    return api->black(out, width, height, "bands", bands, NULL);
}
/* Shrink-on-load thumbnail: never upsized, EXIF orientation applied. With export_srgb, colour managed
   to sRGB (needed for embedded profiles and CMYK; a plain RGB image is taken as sRGB already, which
   spares a colour transform of every pixel). */
static inline int officer_vips_thumbnail(const officer_vips_api *api, const char *path, VipsImage **out, int width, int height, int no_upsize,
                                         int fail_on_error, int export_srgb) {
    VipsSize size = no_upsize ? VIPS_SIZE_DOWN : VIPS_SIZE_BOTH;
    VipsFailOn fail = fail_on_error ? VIPS_FAIL_ON_ERROR : VIPS_FAIL_ON_NONE;
    if (export_srgb)
        return api->thumbnail(path, out, width, "height", height, "size", size, "export_profile", "srgb", "fail_on", fail, NULL);
    return api->thumbnail(path, out, width, "height", height, "size", size, "fail_on", fail, NULL);
}
static inline int officer_vips_jpegsave_full(const officer_vips_api *api, VipsImage *in, const char *path, int quality, int strip,
                                             int interlace) {
    return api->jpegsave(in, path, "Q", quality, "optimize_coding", TRUE, "strip", strip, "interlace", interlace, NULL);
}
static inline int officer_vips_pngsave_8bit(const officer_vips_api *api, VipsImage *in, const char *path, int strip) {
    return api->pngsave(in, path, "compression", 6, "strip", strip, "bitdepth", 8, NULL);
}
static inline int officer_vips_has_field(const officer_vips_api *api, VipsImage *image, const char *name) {
    return api->image_get_typeof(image, name) != 0;
}
static inline const char *officer_vips_get_string(const officer_vips_api *api, VipsImage *image, const char *name) {
    const char *out = NULL;
    return api->image_get_string(image, name, &out) == 0 ? out : NULL;
}
static inline int officer_vips_get_int(const officer_vips_api *api, VipsImage *image, const char *name, int fallback) {
    int out = 0;
    if (api->image_get_typeof(image, name) == 0) return fallback;
    return api->image_get_int(image, name, &out) == 0 ? out : fallback;
}
static inline int officer_vips_has_alpha(const officer_vips_api *api, VipsImage *image) { return api->image_hasalpha(image); }
static inline int officer_vips_is_cmyk(const officer_vips_api *api, VipsImage *image) {
    return api->image_guess_interpretation(image) == VIPS_INTERPRETATION_CMYK;
}
static inline int officer_vips_jpegsave(const officer_vips_api *api, VipsImage *in, const char *path, int quality, int optimize, int strip) {
    return api->jpegsave(in, path, "Q", quality, "optimize_coding", optimize, "strip", strip, NULL);
}
static inline int officer_vips_pngsave(const officer_vips_api *api, VipsImage *in, const char *path, int compression, int strip) {
    return api->pngsave(in, path, "compression", compression, "strip", strip, NULL);
}
static inline int officer_vips_webpsave(const officer_vips_api *api, VipsImage *in, const char *path, int quality, int strip) {
    return api->webpsave(in, path, "Q", quality, "strip", strip, NULL);
}
static inline int officer_vips_tiffsave(const officer_vips_api *api, VipsImage *in, const char *path, int strip) {
    return api->tiffsave(in, path, "compression", VIPS_FOREIGN_TIFF_COMPRESSION_DEFLATE, "strip", strip, NULL);
}
static inline int officer_vips_can_save_gif(const officer_vips_api *api) { return api->gifsave != NULL; }
static inline int officer_vips_gifsave(const officer_vips_api *api, VipsImage *in, const char *path, int strip) {
    return api->gifsave ? api->gifsave(in, path, "strip", strip, NULL) : -1;
}
/* Transparency onto white (a JPEG has none; libvips' default background is black). */
static inline int officer_vips_flatten_white(const officer_vips_api *api, VipsImage *in, VipsImage **out) {
    const double white[] = {255, 255, 255};
    VipsArrayDouble *background = api->array_double_new(white, 3);
    int result = api->flatten(in, out, "background", background, NULL);
    api->area_unref((VipsArea *)background);
    return result;
}
/* Turns by a multiple of 90 degrees (0-3 quarter turns clockwise). */
static inline int officer_vips_rot(const officer_vips_api *api, VipsImage *in, VipsImage **out, int quarters) {
    static const VipsAngle angles[] = {VIPS_ANGLE_D0, VIPS_ANGLE_D90, VIPS_ANGLE_D180, VIPS_ANGLE_D270};
    return api->rot(in, out, angles[quarters & 3], NULL);
}
static inline int officer_vips_flip_horizontal(const officer_vips_api *api, VipsImage *in, VipsImage **out) {
    return api->flip(in, out, VIPS_DIRECTION_HORIZONTAL, NULL);
}
static inline int officer_vips_autorot(const officer_vips_api *api, VipsImage *in, VipsImage **out) { return api->autorot(in, out, NULL); }
static inline int officer_vips_avg(const officer_vips_api *api, VipsImage *in, double *out) { return api->avg(in, out, NULL); }
static inline int officer_vips_image_get_width(const officer_vips_api *api, VipsImage *image) { return api->image_get_width(image); }
static inline int officer_vips_image_get_height(const officer_vips_api *api, VipsImage *image) { return api->image_get_height(image); }
static inline int officer_vips_image_get_bands(const officer_vips_api *api, VipsImage *image) { return api->image_get_bands(image); }
static inline void officer_g_object_unref(const officer_vips_api *api, VipsImage *image) { api->object_unref(image); }
#endif

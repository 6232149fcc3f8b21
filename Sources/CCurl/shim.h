#ifndef OFFICER_CCURL_SHIM_H
#define OFFICER_CCURL_SHIM_H
/* libcurl is loaded with dlopen on first use rather than linked: its dependency tree (OpenSSL, LDAP,
   SSH, Kerberos, …) costs ~8 MiB of resident memory in every process, and commands that never touch
   the network (image preparation, help) should not pay it. Every call goes through a table of resolved
   symbols that Swift owns and passes in. Variadic setopt/getinfo get fixed-type wrappers: Swift cannot
   call C variadics, and a fixed signature per argument type keeps every call type-checked. */
#include <dlfcn.h>
#include <stdio.h>
#include <curl/curl.h>

#define OFFICER_CURL_SONAME "libcurl.so.4"

typedef size_t (*officer_curl_data_callback)(char *buffer, size_t size, size_t count, void *userdata);
typedef int (*officer_curl_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow,
                                              curl_off_t ultotal, curl_off_t ulnow);
typedef int (*officer_curl_seek_callback)(void *userdata, curl_off_t offset, int origin);

typedef struct {
    int state; /* 0: not tried, 1: loaded, -1: failed */
    char error[512];
    CURLcode (*global_init)(long);
    char *(*version)(void);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    CURLcode (*easy_pause)(CURL *, int);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    curl_mime *(*mime_init)(CURL *);
    void (*mime_free)(curl_mime *);
    curl_mimepart *(*mime_addpart)(curl_mime *);
    CURLcode (*mime_name)(curl_mimepart *, const char *);
    CURLcode (*mime_data)(curl_mimepart *, const char *, size_t);
    CURLcode (*mime_data_cb)(curl_mimepart *, curl_off_t, curl_read_callback, curl_seek_callback, curl_free_callback, void *);
    CURLcode (*mime_filename)(curl_mimepart *, const char *);
    CURLcode (*mime_type)(curl_mimepart *, const char *);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
} officer_curl_api;

/* Loads libcurl, resolves every symbol and runs curl_global_init; 0 on success. Call once. */
static inline int officer_curl_load(officer_curl_api *api) {
    if (api->state != 0) return api->state == 1 ? 0 : -1;
    /* Lazy binding: only the symbols really called get resolved, in libcurl and its dependencies. */
    void *h = dlopen(OFFICER_CURL_SONAME, RTLD_LAZY | RTLD_GLOBAL);
    if (!h) {
        snprintf(api->error, sizeof api->error, "%s", dlerror());
        api->state = -1;
        return -1;
    }
#define OFFICER_CURL_BIND(field, symbol)                                                                 \
    if (!(*(void **)(&api->field) = dlsym(h, symbol))) {                                                \
        snprintf(api->error, sizeof api->error, "%s lacks %s", OFFICER_CURL_SONAME, symbol);            \
        api->state = -1;                                                                                \
        return -1;                                                                                      \
    }
    OFFICER_CURL_BIND(global_init, "curl_global_init")
    OFFICER_CURL_BIND(version, "curl_version")
    OFFICER_CURL_BIND(easy_init, "curl_easy_init")
    OFFICER_CURL_BIND(easy_cleanup, "curl_easy_cleanup")
    OFFICER_CURL_BIND(easy_strerror, "curl_easy_strerror")
    OFFICER_CURL_BIND(easy_setopt, "curl_easy_setopt")
    OFFICER_CURL_BIND(easy_getinfo, "curl_easy_getinfo")
    OFFICER_CURL_BIND(easy_pause, "curl_easy_pause")
    OFFICER_CURL_BIND(slist_append, "curl_slist_append")
    OFFICER_CURL_BIND(slist_free_all, "curl_slist_free_all")
    OFFICER_CURL_BIND(mime_init, "curl_mime_init")
    OFFICER_CURL_BIND(mime_free, "curl_mime_free")
    OFFICER_CURL_BIND(mime_addpart, "curl_mime_addpart")
    OFFICER_CURL_BIND(mime_name, "curl_mime_name")
    OFFICER_CURL_BIND(mime_data, "curl_mime_data")
    OFFICER_CURL_BIND(mime_data_cb, "curl_mime_data_cb")
    OFFICER_CURL_BIND(mime_filename, "curl_mime_filename")
    OFFICER_CURL_BIND(mime_type, "curl_mime_type")
    OFFICER_CURL_BIND(multi_init, "curl_multi_init")
    OFFICER_CURL_BIND(multi_add_handle, "curl_multi_add_handle")
    OFFICER_CURL_BIND(multi_remove_handle, "curl_multi_remove_handle")
    OFFICER_CURL_BIND(multi_setopt, "curl_multi_setopt")
    OFFICER_CURL_BIND(multi_perform, "curl_multi_perform")
    OFFICER_CURL_BIND(multi_poll, "curl_multi_poll")
    OFFICER_CURL_BIND(multi_wakeup, "curl_multi_wakeup")
    OFFICER_CURL_BIND(multi_info_read, "curl_multi_info_read")
#undef OFFICER_CURL_BIND
    CURLcode status = api->global_init(CURL_GLOBAL_ALL);
    if (status != CURLE_OK) {
        snprintf(api->error, sizeof api->error, "curl_global_init failed: %s", api->easy_strerror(status));
        api->state = -1;
        return -1;
    }
    api->state = 1;
    return 0;
}
static inline const char *officer_curl_load_error(const officer_curl_api *api) { return api->error; }

static inline const char *officer_curl_version(const officer_curl_api *api) { return api->version(); }
static inline CURL *officer_curl_easy_init(const officer_curl_api *api) { return api->easy_init(); }
static inline void officer_curl_easy_cleanup(const officer_curl_api *api, CURL *h) { api->easy_cleanup(h); }
static inline const char *officer_curl_easy_strerror(const officer_curl_api *api, CURLcode c) { return api->easy_strerror(c); }
static inline CURLcode officer_curl_unpause(const officer_curl_api *api, CURL *h) { return api->easy_pause(h, CURLPAUSE_CONT); }

static inline CURLcode officer_curl_easy_setopt_long(const officer_curl_api *api, CURL *h, CURLoption o, long v) { return api->easy_setopt(h, o, v); }
static inline CURLcode officer_curl_easy_setopt_off_t(const officer_curl_api *api, CURL *h, CURLoption o, curl_off_t v) { return api->easy_setopt(h, o, v); }
static inline CURLcode officer_curl_easy_setopt_string(const officer_curl_api *api, CURL *h, CURLoption o, const char *v) { return api->easy_setopt(h, o, v); }
static inline CURLcode officer_curl_easy_setopt_pointer(const officer_curl_api *api, CURL *h, CURLoption o, void *v) { return api->easy_setopt(h, o, v); }
static inline CURLcode officer_curl_easy_setopt_slist(const officer_curl_api *api, CURL *h, CURLoption o, struct curl_slist *v) { return api->easy_setopt(h, o, v); }
static inline CURLcode officer_curl_easy_setopt_mime(const officer_curl_api *api, CURL *h, curl_mime *v) { return api->easy_setopt(h, CURLOPT_MIMEPOST, v); }
static inline CURLcode officer_curl_easy_setopt_data_callback(const officer_curl_api *api, CURL *h, CURLoption o, officer_curl_data_callback v) { return api->easy_setopt(h, o, v); }
static inline CURLcode officer_curl_easy_setopt_xferinfo_callback(const officer_curl_api *api, CURL *h, officer_curl_xferinfo_callback v) { return api->easy_setopt(h, CURLOPT_XFERINFOFUNCTION, v); }
static inline CURLcode officer_curl_easy_setopt_seek_callback(const officer_curl_api *api, CURL *h, officer_curl_seek_callback v) { return api->easy_setopt(h, CURLOPT_SEEKFUNCTION, v); }

static inline CURLcode officer_curl_easy_getinfo_long(const officer_curl_api *api, CURL *h, CURLINFO i, long *v) { return api->easy_getinfo(h, i, v); }
static inline CURLcode officer_curl_easy_getinfo_string(const officer_curl_api *api, CURL *h, CURLINFO i, char **v) { return api->easy_getinfo(h, i, v); }

static inline struct curl_slist *officer_curl_slist_append(const officer_curl_api *api, struct curl_slist *l, const char *s) { return api->slist_append(l, s); }
static inline void officer_curl_slist_free_all(const officer_curl_api *api, struct curl_slist *l) { api->slist_free_all(l); }

static inline curl_mime *officer_curl_mime_init(const officer_curl_api *api, CURL *h) { return api->mime_init(h); }
static inline void officer_curl_mime_free(const officer_curl_api *api, curl_mime *m) { api->mime_free(m); }
static inline CURLcode officer_curl_mime_add_field(const officer_curl_api *api, curl_mime *m, const char *name, const char *value) {
    curl_mimepart *part = api->mime_addpart(m);
    CURLcode status = api->mime_name(part, name);
    return status == CURLE_OK ? api->mime_data(part, value, CURL_ZERO_TERMINATED) : status;
}
/* A file part whose bytes come from the caller's read and seek callbacks (the same ones a file body uses), so the
   caller sees every read and can check the file before its last bytes go. */
static inline CURLcode officer_curl_mime_add_file_callbacks(const officer_curl_api *api, curl_mime *m, const char *name,
                                                            const char *filename, const char *type, curl_off_t size,
                                                            officer_curl_data_callback read, officer_curl_seek_callback seek,
                                                            void *userdata) {
    curl_mimepart *part = api->mime_addpart(m);
    CURLcode status = api->mime_name(part, name);
    if (status == CURLE_OK) status = api->mime_data_cb(part, size, read, seek, NULL, userdata);
    if (status == CURLE_OK) status = api->mime_filename(part, filename);
    if (status == CURLE_OK && type) status = api->mime_type(part, type);
    return status;
}

static inline CURLM *officer_curl_multi_init(const officer_curl_api *api) { return api->multi_init(); }
static inline CURLMcode officer_curl_multi_add(const officer_curl_api *api, CURLM *m, CURL *h) { return api->multi_add_handle(m, h); }
static inline CURLMcode officer_curl_multi_remove(const officer_curl_api *api, CURLM *m, CURL *h) { return api->multi_remove_handle(m, h); }
static inline CURLMcode officer_curl_multi_setopt_long(const officer_curl_api *api, CURLM *m, CURLMoption o, long v) { return api->multi_setopt(m, o, v); }
static inline CURLMcode officer_curl_multi_setopt_pointer(const officer_curl_api *api, CURLM *m, CURLMoption o, void *v) { return api->multi_setopt(m, o, v); }
static inline int officer_curl_multi_perform(const officer_curl_api *api, CURLM *m) { int running = 0; api->multi_perform(m, &running); return running; }
static inline void officer_curl_multi_poll(const officer_curl_api *api, CURLM *m, int timeout_ms) { api->multi_poll(m, NULL, 0, timeout_ms, NULL); }
static inline void officer_curl_multi_wakeup(const officer_curl_api *api, CURLM *m) { api->multi_wakeup(m); }
/* One finished transfer, or 0 when none is left: its handle and result. */
static inline int officer_curl_multi_next_done(const officer_curl_api *api, CURLM *m, CURL **easy, CURLcode *result) {
    int left = 0;
    CURLMsg *message;
    while ((message = api->multi_info_read(m, &left))) {
        if (message->msg == CURLMSG_DONE) {
            *easy = message->easy_handle;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}

/* Macros Swift cannot see through. */
static inline size_t officer_curl_readfunc_abort(void) { return CURL_READFUNC_ABORT; }
static inline size_t officer_curl_writefunc_pause(void) { return CURL_WRITEFUNC_PAUSE; }
static inline size_t officer_curl_readfunc_pause(void) { return CURL_READFUNC_PAUSE; }
static inline long officer_curl_auth_bearer(void) { return (long)CURLAUTH_BEARER; }
#endif

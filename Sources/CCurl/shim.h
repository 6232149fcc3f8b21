#ifndef OFFICER_CCURL_SHIM_H
#define OFFICER_CCURL_SHIM_H
/* Fixed-type wrappers around libcurl's variadic calls: Swift cannot call C variadics,
   and a fixed signature per argument type keeps every call type-checked. */
#include <curl/curl.h>

typedef size_t (*officer_curl_data_callback)(char *buffer, size_t size, size_t count, void *userdata);
typedef int (*officer_curl_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow,
                                              curl_off_t ultotal, curl_off_t ulnow);
typedef int (*officer_curl_seek_callback)(void *userdata, curl_off_t offset, int origin);

static inline CURLcode officer_curl_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode officer_curl_easy_setopt_off_t(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode officer_curl_easy_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode officer_curl_easy_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode officer_curl_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode officer_curl_easy_setopt_mime(CURL *h, curl_mime *v) { return curl_easy_setopt(h, CURLOPT_MIMEPOST, v); }
static inline CURLcode officer_curl_easy_setopt_data_callback(CURL *h, CURLoption o, officer_curl_data_callback v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode officer_curl_easy_setopt_xferinfo_callback(CURL *h, officer_curl_xferinfo_callback v) { return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, v); }
static inline CURLcode officer_curl_easy_setopt_seek_callback(CURL *h, officer_curl_seek_callback v) { return curl_easy_setopt(h, CURLOPT_SEEKFUNCTION, v); }

static inline CURLcode officer_curl_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode officer_curl_easy_getinfo_off_t(CURL *h, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode officer_curl_easy_getinfo_string(CURL *h, CURLINFO i, char **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode officer_curl_easy_getinfo_double(CURL *h, CURLINFO i, double *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode officer_curl_easy_getinfo_pointer(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }

static inline CURLMcode officer_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
static inline CURLMcode officer_curl_multi_setopt_pointer(CURLM *m, CURLMoption o, void *v) { return curl_multi_setopt(m, o, v); }

/* CURL_READFUNC_ABORT and friends are macros Swift cannot see through. */
static inline size_t officer_curl_readfunc_abort(void) { return CURL_READFUNC_ABORT; }
static inline size_t officer_curl_writefunc_error(void) { return 0xFFFFFFFF; }
static inline size_t officer_curl_writefunc_pause(void) { return CURL_WRITEFUNC_PAUSE; }
static inline size_t officer_curl_readfunc_pause(void) { return CURL_READFUNC_PAUSE; }
static inline CURLcode officer_curl_unpause(CURL *h) { return curl_easy_pause(h, CURLPAUSE_CONT); }
static inline long officer_curl_auth_bearer(void) { return (long)CURLAUTH_BEARER; }
static inline long officer_curl_version_num(void) { return (long)LIBCURL_VERSION_NUM; }
#endif

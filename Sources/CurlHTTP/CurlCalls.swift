import CCurl

/// Every libcurl call Transfer makes, in one place. libcurl is loaded with dlopen on first use and reached
/// through a table of resolved symbols (see `shim.h`); variadic setopt/getinfo go through fixed-type wrappers.
enum CurlCalls {
    typealias Easy = UnsafeMutableRawPointer
    typealias Multi = UnsafeMutableRawPointer
    typealias DataCallback = officer_curl_data_callback
    typealias ProgressCallback = officer_curl_xferinfo_callback
    typealias SeekCallback = officer_curl_seek_callback

    static let ok = CURLE_OK
    static let abortedByCallback = CURLE_ABORTED_BY_CALLBACK
    /// libcurl's answer to a header line over its size limit: "out of memory" (27) before 8.6, "too large" (100) since.
    static func isTooLarge(_ code: CURLcode) -> Bool { code == CURLE_OUT_OF_MEMORY || code.rawValue == 100 }
    static let readAbort = officer_curl_readfunc_abort()
    static let writePause = officer_curl_writefunc_pause()
    static let readPause = officer_curl_readfunc_pause()
    static let seekOK: Int32 = 0  // CURL_SEEKFUNC_OK
    static let seekFail: Int32 = 1  // CURL_SEEKFUNC_FAIL
    static let errorBufferSize = Int(CURL_ERROR_SIZE)

    // Written once by `load` below (a static let: run once, thread-safely), read-only afterwards.
    nonisolated(unsafe) private static let api: UnsafeMutablePointer<officer_curl_api> = {
        let table = UnsafeMutablePointer<officer_curl_api>.allocate(capacity: 1)
        table.initialize(to: officer_curl_api())
        return table
    }()

    /// nil once libcurl is loaded and initialized, else why not.
    private static let loadProblem: String? =
        officer_curl_load(api) == 0 ? nil : String(cString: officer_curl_load_error(api))

    static func ensureGlobalInit() -> Bool { loadProblem == nil }
    static var loadFailure: String { loadProblem ?? "" }
    static func version() -> String {
        ensureGlobalInit() ? String(cString: officer_curl_version(api)) : "libcurl unavailable (\(loadFailure))"
    }

    // MARK: Easy handles
    static func easyInit() -> Easy? { ensureGlobalInit() ? officer_curl_easy_init(api) : nil }
    static func easyCleanup(_ easy: Easy) { officer_curl_easy_cleanup(api, easy) }
    static func unpause(_ easy: Easy) { _ = officer_curl_unpause(api, easy) }
    static func strerror(_ code: CURLcode) -> String { String(cString: officer_curl_easy_strerror(api, code)) }

    @discardableResult
    static func set(_ easy: Easy, _ option: CURLoption, _ value: Int) -> CURLcode {
        officer_curl_easy_setopt_long(api, easy, option, value)
    }
    @discardableResult
    static func set(_ easy: Easy, _ option: CURLoption, offset: Int64) -> CURLcode {
        officer_curl_easy_setopt_off_t(api, easy, option, curl_off_t(offset))
    }
    @discardableResult
    static func set(_ easy: Easy, _ option: CURLoption, _ value: String) -> CURLcode {
        // libcurl copies string options (since 7.17), so the temporary C string may go away.
        officer_curl_easy_setopt_string(api, easy, option, value)
    }
    @discardableResult
    static func set(_ easy: Easy, _ option: CURLoption, pointer: UnsafeMutableRawPointer?) -> CURLcode {
        officer_curl_easy_setopt_pointer(api, easy, option, pointer)
    }
    @discardableResult
    static func set(_ easy: Easy, _ option: CURLoption, list: UnsafeMutablePointer<curl_slist>?) -> CURLcode {
        officer_curl_easy_setopt_slist(api, easy, option, list)
    }
    @discardableResult
    static func set(_ easy: Easy, _ option: CURLoption, callback: DataCallback) -> CURLcode {
        officer_curl_easy_setopt_data_callback(api, easy, option, callback)
    }
    @discardableResult
    static func setProgress(_ easy: Easy, _ callback: ProgressCallback) -> CURLcode {
        officer_curl_easy_setopt_xferinfo_callback(api, easy, callback)
    }
    @discardableResult
    static func setSeek(_ easy: Easy, _ callback: SeekCallback) -> CURLcode {
        officer_curl_easy_setopt_seek_callback(api, easy, callback)
    }
    @discardableResult
    static func setMime(_ easy: Easy, _ mime: OpaquePointer?) -> CURLcode {
        officer_curl_easy_setopt_mime(api, easy, mime)
    }

    static func infoLong(_ easy: Easy, _ info: CURLINFO) -> Int {
        var value = 0
        _ = officer_curl_easy_getinfo_long(api, easy, info, &value)
        return value
    }
    static func infoString(_ easy: Easy, _ info: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        _ = officer_curl_easy_getinfo_string(api, easy, info, &value)
        return value.map { String(cString: $0) }
    }

    // MARK: Header lists
    static func append(_ list: UnsafeMutablePointer<curl_slist>?, _ line: String) -> UnsafeMutablePointer<curl_slist>? {
        officer_curl_slist_append(api, list, line)
    }
    static func freeList(_ list: UnsafeMutablePointer<curl_slist>?) { officer_curl_slist_free_all(api, list) }

    // MARK: Multipart bodies
    static func mimeInit(_ easy: Easy) -> OpaquePointer? { officer_curl_mime_init(api, easy) }
    static func mimeFree(_ mime: OpaquePointer?) { officer_curl_mime_free(api, mime) }
    static func mimeAddField(_ mime: OpaquePointer, name: String, value: String) -> CURLcode {
        officer_curl_mime_add_field(api, mime, name, value)
    }
    static func mimeAddFile(
        _ mime: OpaquePointer, name: String, filename: String, type: String?, size: Int64, read: DataCallback,
        seek: SeekCallback,
        userdata: UnsafeMutableRawPointer
    ) -> CURLcode {
        officer_curl_mime_add_file_callbacks(api, mime, name, filename, type, curl_off_t(size), read, seek, userdata)
    }

    // MARK: Multi handle
    static func multiInit() -> Multi? { ensureGlobalInit() ? officer_curl_multi_init(api) : nil }
    static func multiAdd(_ multi: Multi, _ easy: Easy) -> CURLMcode { officer_curl_multi_add(api, multi, easy) }
    static func multiRemove(_ multi: Multi, _ easy: Easy) { _ = officer_curl_multi_remove(api, multi, easy) }
    static func multiSetLong(_ multi: Multi, _ option: CURLMoption, _ value: Int) {
        _ = officer_curl_multi_setopt_long(api, multi, option, value)
    }
    static func multiPerform(_ multi: Multi) -> Int32 { officer_curl_multi_perform(api, multi) }
    static func multiPoll(_ multi: Multi, timeoutMilliseconds: Int32) {
        officer_curl_multi_poll(api, multi, timeoutMilliseconds)
    }
    static func multiWakeup(_ multi: Multi) { officer_curl_multi_wakeup(api, multi) }

    /// Drains finished transfers: each easy handle with its result code.
    static func multiFinished(_ multi: Multi) -> [(Easy, CURLcode)] {
        var finished: [(Easy, CURLcode)] = []
        var easy: Easy?
        var result = CURLE_OK
        while officer_curl_multi_next_done(api, multi, &easy, &result) == 1, let handle = easy {
            finished.append((handle, result))
        }
        return finished
    }

    static func authBearer() -> Int { officer_curl_auth_bearer() }
}

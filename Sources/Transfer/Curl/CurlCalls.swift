import CCurl

/// Every libcurl call Transfer makes, in one place. Variadic setopt/getinfo go through `shim.h`'s fixed-type wrappers.
enum CurlCalls {
    typealias Easy = UnsafeMutableRawPointer
    typealias Multi = UnsafeMutableRawPointer
    typealias DataCallback = officer_curl_data_callback
    typealias ProgressCallback = officer_curl_xferinfo_callback
    typealias SeekCallback = officer_curl_seek_callback

    static let ok = CURLE_OK
    static let abortedByCallback = CURLE_ABORTED_BY_CALLBACK
    static let readAbort = officer_curl_readfunc_abort()
    static let writePause = officer_curl_writefunc_pause()
    static let readPause = officer_curl_readfunc_pause()
    static let seekOK: Int32 = 0  // CURL_SEEKFUNC_OK
    static let seekFail: Int32 = 1  // CURL_SEEKFUNC_FAIL
    static let errorBufferSize = Int(CURL_ERROR_SIZE)

    // A static let runs once, thread-safely, before the first handle exists.
    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_ALL))

    static func ensureGlobalInit() -> Bool { globalInit == CURLE_OK }
    static func version() -> String { String(cString: curl_version()) }

    // MARK: Easy handles
    static func easyInit() -> Easy? { curl_easy_init() }
    static func easyCleanup(_ easy: Easy) { curl_easy_cleanup(easy) }
    static func unpause(_ easy: Easy) { _ = officer_curl_unpause(easy) }
    static func strerror(_ code: CURLcode) -> String { String(cString: curl_easy_strerror(code)) }

    @discardableResult
    static func set(_ easy: Easy, _ option: CURLoption, _ value: Int) -> CURLcode {
        officer_curl_easy_setopt_long(easy, option, value)
    }
    @discardableResult
    static func set(_ easy: Easy, _ option: CURLoption, offset: Int64) -> CURLcode {
        officer_curl_easy_setopt_off_t(easy, option, curl_off_t(offset))
    }
    @discardableResult
    static func set(_ easy: Easy, _ option: CURLoption, _ value: String) -> CURLcode {
        // libcurl copies string options (since 7.17), so the temporary C string may go away.
        officer_curl_easy_setopt_string(easy, option, value)
    }
    @discardableResult
    static func set(_ easy: Easy, _ option: CURLoption, pointer: UnsafeMutableRawPointer?) -> CURLcode {
        officer_curl_easy_setopt_pointer(easy, option, pointer)
    }
    @discardableResult
    static func set(_ easy: Easy, _ option: CURLoption, list: UnsafeMutablePointer<curl_slist>?) -> CURLcode {
        officer_curl_easy_setopt_slist(easy, option, list)
    }
    @discardableResult
    static func set(_ easy: Easy, _ option: CURLoption, callback: DataCallback) -> CURLcode {
        officer_curl_easy_setopt_data_callback(easy, option, callback)
    }
    @discardableResult
    static func setProgress(_ easy: Easy, _ callback: ProgressCallback) -> CURLcode {
        officer_curl_easy_setopt_xferinfo_callback(easy, callback)
    }
    @discardableResult
    static func setSeek(_ easy: Easy, _ callback: SeekCallback) -> CURLcode {
        officer_curl_easy_setopt_seek_callback(easy, callback)
    }
    @discardableResult
    static func setMime(_ easy: Easy, _ mime: OpaquePointer?) -> CURLcode { officer_curl_easy_setopt_mime(easy, mime) }

    static func infoLong(_ easy: Easy, _ info: CURLINFO) -> Int {
        var value = 0
        _ = officer_curl_easy_getinfo_long(easy, info, &value)
        return value
    }
    static func infoOffset(_ easy: Easy, _ info: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        _ = officer_curl_easy_getinfo_off_t(easy, info, &value)
        return Int64(value)
    }
    static func infoString(_ easy: Easy, _ info: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        _ = officer_curl_easy_getinfo_string(easy, info, &value)
        return value.map { String(cString: $0) }
    }

    // MARK: Header lists
    static func append(_ list: UnsafeMutablePointer<curl_slist>?, _ line: String) -> UnsafeMutablePointer<curl_slist>? {
        curl_slist_append(list, line)
    }
    static func freeList(_ list: UnsafeMutablePointer<curl_slist>?) { curl_slist_free_all(list) }

    // MARK: Multipart bodies
    static func mimeInit(_ easy: Easy) -> OpaquePointer? { curl_mime_init(easy) }
    static func mimeFree(_ mime: OpaquePointer?) { curl_mime_free(mime) }
    static func mimeAddField(_ mime: OpaquePointer, name: String, value: String) -> CURLcode {
        let part = curl_mime_addpart(mime)
        let status = curl_mime_name(part, name)
        return status == CURLE_OK ? curl_mime_data(part, value, value.utf8.count) : status
    }
    static func mimeAddFile(_ mime: OpaquePointer, name: String, path: String, filename: String, type: String?) -> CURLcode {
        let part = curl_mime_addpart(mime)
        var status = curl_mime_name(part, name)
        if status == CURLE_OK { status = curl_mime_filedata(part, path) }
        if status == CURLE_OK { status = curl_mime_filename(part, filename) }
        if status == CURLE_OK, let type { status = curl_mime_type(part, type) }
        return status
    }

    // MARK: Multi handle
    static func multiInit() -> Multi? { curl_multi_init() }
    static func multiAdd(_ multi: Multi, _ easy: Easy) -> CURLMcode { curl_multi_add_handle(multi, easy) }
    static func multiRemove(_ multi: Multi, _ easy: Easy) { curl_multi_remove_handle(multi, easy) }
    static func multiSetLong(_ multi: Multi, _ option: CURLMoption, _ value: Int) {
        _ = officer_curl_multi_setopt_long(multi, option, value)
    }
    static func multiPerform(_ multi: Multi) -> Int32 {
        var running: Int32 = 0
        curl_multi_perform(multi, &running)
        return running
    }
    static func multiPoll(_ multi: Multi, timeoutMilliseconds: Int32) {
        curl_multi_poll(multi, nil, 0, timeoutMilliseconds, nil)
    }
    static func multiWakeup(_ multi: Multi) { curl_multi_wakeup(multi) }

    /// Drains finished transfers: each easy handle with its result code.
    static func multiFinished(_ multi: Multi) -> [(Easy, CURLcode)] {
        var finished: [(Easy, CURLcode)] = []
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            if message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle {
                finished.append((easy, message.pointee.data.result))
            }
        }
        return finished
    }

    static func authBearer() -> Int { officer_curl_auth_bearer() }
}

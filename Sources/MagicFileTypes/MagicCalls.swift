import CMagic

/// Every libmagic call the libmagic plug-in makes, in one place (like swift-system's `Syscalls.swift`).
enum MagicCalls {
    static let mimeFlags = MAGIC_MIME_TYPE | MAGIC_MIME_ENCODING | MAGIC_ERROR
    static let describeFlags = MAGIC_ERROR

    static func open(flags: Int32) -> OpaquePointer? { magic_open(flags) }
    static func close(_ cookie: OpaquePointer) { magic_close(cookie) }
    static func load(_ cookie: OpaquePointer) -> Int32 { magic_load(cookie, nil) }
    static func error(_ cookie: OpaquePointer) -> String? { magic_error(cookie).map { String(cString: $0) } }
    static func file(_ cookie: OpaquePointer, _ path: String) -> String? {
        magic_file(cookie, path).map { String(cString: $0) }
    }
    static func buffer(_ cookie: OpaquePointer, _ bytes: UnsafeRawBufferPointer) -> String? {
        magic_buffer(cookie, bytes.baseAddress, bytes.count).map { String(cString: $0) }
    }
    static func version() -> Int32 { magic_version() }
}

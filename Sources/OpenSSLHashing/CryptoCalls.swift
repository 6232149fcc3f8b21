import CCrypto

/// Every libcrypto call the OpenSSL plug-in makes, in one place.
enum CryptoCalls {
    static func newContext() -> OpaquePointer? { EVP_MD_CTX_new() }
    static func freeContext(_ context: OpaquePointer) { EVP_MD_CTX_free(context) }
    static func initSHA256(_ context: OpaquePointer) -> Bool { EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 }
    static func initSHA1(_ context: OpaquePointer) -> Bool { EVP_DigestInit_ex(context, EVP_sha1(), nil) == 1 }
    static func initMD5(_ context: OpaquePointer) -> Bool { EVP_DigestInit_ex(context, EVP_md5(), nil) == 1 }
    static func update(_ context: OpaquePointer, _ bytes: UnsafeRawBufferPointer) -> Bool {
        EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1
    }
    static func final(_ context: OpaquePointer) -> [UInt8]? {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else { return nil }
        return Array(digest.prefix(Int(length)))
    }
    static func version() -> String { String(cString: OpenSSL_version(OPENSSL_VERSION)) }
}

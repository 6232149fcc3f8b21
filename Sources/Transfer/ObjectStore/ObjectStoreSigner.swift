import HTTP

/// Signs every request to one store origin with Signature V4. Bodies in memory (XML) are hashed into the
/// signature; file bodies go as `UNSIGNED-PAYLOAD` and are checked by `Content-MD5` instead, which the store
/// verifies against what it received (no second read of the file to hash it before sending).
struct ObjectStoreSigner: RequestSigner {
    let origin: URLOrigin
    let signature: SignatureV4

    func signatureHeaders(method: String, url: String, headers: HTTPHeaders, body: HTTPRequest.Body) -> [(
        String, String
    )] {
        let payload: String
        switch body {
        case .empty: payload = SignatureV4.emptyPayloadHash
        case .data(let data, _): payload = SignatureV4.hex(SHA256Hasher.digest(Array(data)))
        case .file, .multipart: payload = SignatureV4.unsignedPayload
        }
        let signed = headers.map { ($0.name, $0.value) }.filter { name, _ in
            let lower = name.lowercased()
            return lower.hasPrefix("x-amz-") || ["content-md5", "range", "if-match", "if-none-match"].contains(lower)
        }
        return signature.sign(method: method, url: url, headers: signed, payloadHash: payload)
    }
}

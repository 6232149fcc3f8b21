/// Signs each attempt of a request just before it is sent (S3's Signature V4 signs the time, so a retry needs
/// a fresh signature). A signer belongs to one origin: requests to any other origin, including a redirect hop,
/// go unsigned, as a bearer token does not travel either.
package protocol RequestSigner: Sendable {
    /// The only origin its signatures go to.
    var origin: URLOrigin { get }
    /// The header fields to add to this attempt (among them `Authorization`).
    func signatureHeaders(method: String, url: String, headers: HTTPHeaders, body: HTTPRequest.Body) -> [(
        String, String
    )]
}

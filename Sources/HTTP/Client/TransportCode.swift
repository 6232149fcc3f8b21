/// The transport failures the library acts on, by name, so no caller compares an
/// ``HTTPError/transport(request:code:message:)`` code with a bare number. The numbering is libcurl's `CURLE_*`
/// (stable across versions); every other engine maps its own failures onto it, and a failure it cannot map keeps
/// its own (negative) number, which no rule here treats as worth another attempt.
package enum TransportCode {
    /// `CURLE_COULDNT_RESOLVE_HOST`: the server's name did not resolve.
    package static let couldNotResolve = 6
    /// `CURLE_COULDNT_CONNECT`: nothing reached the server; any request may be sent again.
    package static let couldNotConnect = 7
    /// `CURLE_HTTP2`: an HTTP/2 framing failure.
    package static let http2 = 16
    /// `CURLE_PARTIAL_FILE`: the body ended before its announced length.
    package static let partialFile = 18
    /// `CURLE_OPERATION_TIMEDOUT`: the transfer ran out of time.
    package static let timedOut = 28
    /// `CURLE_GOT_NOTHING`: the server closed without answering.
    package static let gotNothing = 52
    /// `CURLE_SEND_ERROR`: the connection broke while sending.
    package static let sendError = 55
    /// `CURLE_RECV_ERROR`: the connection broke while receiving.
    package static let receiveError = 56
    /// `CURLE_SSL_CONNECT_ERROR`: the TLS handshake failed.
    package static let tlsHandshake = 35
    /// `CURLE_PEER_FAILED_VERIFICATION`: the server's certificate was not trusted.
    package static let untrustedCertificate = 60
    /// `CURLE_HTTP2_STREAM`: one HTTP/2 stream failed.
    package static let http2Stream = 92
    /// `CURLE_SSL_PINNEDPUBKEYNOTMATCH`: the server's key is none of the pinned ones.
    package static let pinnedKeyMismatch = 90

    /// The codes where the network, not the request, was at fault: worth another attempt.
    package static let retryable: Set<Int> = [
        couldNotConnect, http2, partialFile, timedOut, gotNothing, sendError, receiveError, http2Stream,
    ]
}

extension ErrorCategory {
    /// The category of an HTTP status the server answered with: 401 authentication, 404 not found, 409 conflict,
    /// 400/403/413/415/422 refused, 507 a full server, anything else the server's failure.
    package static func of(httpStatus status: Int) -> ErrorCategory {
        switch status {
        case 401: .authentication
        case 404, 410: .notFound
        case 409, 423: .conflict
        case 400, 403, 413, 415, 422: .refused
        case 507: .serverFull
        default: .server
        }
    }
}

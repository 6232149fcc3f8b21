import FileModel

extension HTTPError: CategorizedError {
    /// Transport failures are the network's; answers outside what was asked are the server's; what our own
    /// rules stopped before sending (a token's origin, offline, a bad header) is refused.
    package var category: ErrorCategory {
        switch self {
        case .localFile: .localFile
        case .noSpace: .localFull
        case .cancelled: .cancelled
        case .unsupportedURL: .invalidInput
        case .notAvailable: .refused
        case .rejected, .lengthExceeded, .headersTooLarge, .responseTooLarge, .tooManyRedirects: .server
        case .credentialScope, .redirectRefused, .invalidHeader, .offline: .refused
        case .transport, .tooSlow, .gaveUp: .network
        }
    }
}

extension CredentialError: CategorizedError {
    /// A token that cannot be one needs a new sign-in; a server URL that is not one is the caller's input.
    package var category: ErrorCategory {
        switch self {
        case .empty, .tooLong, .invalidCharacter: .authentication
        case .invalidServer: .invalidInput
        }
    }
}

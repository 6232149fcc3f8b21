import FileModel
import HTTP
import Journal
import Preview
import Transfer

/// Any failure of the library as an app or the CLI shows it: one type, whatever layer failed.
///
/// `message` is one line in the user's terms: it names the location or the server as the user wrote it
/// (`officer:/docs`, `work:/x`, `backup:photos/a.jpg`, `http://host:port`), in the project's vocabulary, and shows
/// no request URL, libcurl code, library name or temporary file; `detail` keeps the technical line for `-v`.
package struct FailureReport: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it is (what an exit code or an app's icon follows).
    package let category: ErrorCategory
    /// The location or server it concerns, as the user writes it, when the failure names one.
    package let subject: String?
    /// The server's own code for it (`exists`, `not_empty`, `NoSuchBucket`), when the server gave one.
    package let serverCode: String?
    /// One line in the user's terms.
    package let message: String
    /// The underlying error's own line: requests, codes and the libraries' words, for `-v` and bug reports.
    package let detail: String
    /// The error it reports.
    package let underlying: any Error

    /// The report of `error` in `terms` (a front door's servers and stores).
    package init(_ error: any Error, terms: LocationNames = LocationNames()) {
        if let report = error as? FailureReport {
            self = report
            return
        }
        let wording = Self.wording(of: error, terms: terms)
        category = ErrorCategory.of(error)
        subject = wording.subject
        serverCode = Self.serverCode(of: error)
        message = URLRedaction.redactingCredentials(in: SystemWording.userTerms(wording.message))
        detail = URLRedaction.redactingCredentials(in: "\(error)")
        underlying = error
    }

    /// The message.
    package var description: String { message }

    /// True when the failure is a server certificate this client does not trust (a self-signed one, an unknown
    /// authority): trusting its certificate settles it.
    package var isUntrustedCertificate: Bool { Self.transportError(in: underlying)?.isUntrustedCertificate ?? false }

    /// The transfer failure under `error`, however many layers wrap it.
    static func transportError(in error: any Error) -> HTTPError? {
        switch error {
        case let error as HTTPError: error
        case OfficerError.transport(let inner, _), DownloadError.transfer(let inner), UploadError.transfer(let inner),
            ObjectStoreError.transfer(let inner):
            inner
        case RemoteActionError.server(_, let inner): transportError(in: inner)
        case RemoteActionError.upload(_, let inner): transportError(in: inner)
        case RemoteActionError.download(_, let inner): transportError(in: inner)
        default: nil
        }
    }

    /// The server's code, where an error carries one.
    static func serverCode(of error: any Error) -> String? {
        switch error {
        case OfficerError.conflict(_, _, let code), OfficerError.badRequest(_, _, let code): code
        case ObjectStoreError.server(_, _, let code, _), ObjectStoreError.accessDenied(_, let code, _): code
        case RemoteActionError.server(_, let inner): serverCode(of: inner)
        default: nil
        }
    }
}

extension OfficerFiles {
    /// The terms this front door's failures are told in: its server, named remotes and object stores.
    package var locationNames: LocationNames { LocationNames(configuration: configuration) }

    /// `error` as this front door tells it: one line in the user's terms, its category and what it concerns.
    package func report(_ error: any Error) -> FailureReport { FailureReport(error, terms: locationNames) }
}

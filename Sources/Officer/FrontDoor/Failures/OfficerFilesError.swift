import FileModel
import Foundation
import HTTP
import Journal
import Preview
import Transfer

/// Any failure of the library as an app or the CLI shows it: one type, whatever layer failed. Every public
/// call of ``OfficerFiles`` throws this (and only this), so an app shows `localizedDescription` (the ``message``),
/// picks an icon or a retry by ``category``, and finds the location and the server's code without knowing the
/// layers beneath.
///
/// `message` is one line in the user's terms: it names the location or the server as the user wrote it
/// (`officer:/docs`, `work:/x`, `backup:photos/a.jpg`, `http://host:port`), in the project's vocabulary, and shows
/// no request URL, libcurl code, library name or temporary file; `detail` keeps the technical line for `-v`.
public struct OfficerFilesError: Error, Sendable, CustomStringConvertible, CategorizedError, LocalizedError {
    /// What kind of failure it is (what an exit code or an app's icon follows).
    public let category: ErrorCategory
    /// The location, local path or server it concerns, as the user writes it (`officer:/docs`, `work:/x`,
    /// `backup:photos/a.jpg`, `/home/ann/a.jpg`, `http://host:port`).
    public private(set) var subject: String?
    /// The server's own code for it (`exists`, `not_empty`, `NoSuchBucket`), when the server gave one or the
    /// front door refused for the same reason before asking.
    public let serverCode: String?
    /// One line in the user's terms.
    public let message: String
    /// The underlying error's own line: requests, codes and the libraries' words, for logs and bug reports.
    public let detail: String
    /// The error it reports, of the layer that failed.
    public let underlying: any Error

    /// The report of `error` in `terms` (a front door's servers and stores).
    package init(_ error: any Error, terms: LocationNames = LocationNames()) {
        if let report = error as? OfficerFilesError {
            self = report
            return
        }
        let wording = Self.wording(of: error, terms: terms)
        category = ErrorCategory.of(error)
        subject = wording.subject
        serverCode = Self.serverCode(of: error)
        message = URLRedaction.redactingCredentials(
            in: TemporaryNames.shown(SystemWording.userTerms(wording.message)))
        detail = URLRedaction.redactingCredentials(in: "\(error)")
        underlying = error
    }

    /// The report of `error`, and `subject` when the failure itself names no location (the call's location).
    package init(_ error: any Error, terms: LocationNames = LocationNames(), about subject: String?) {
        self.init(error, terms: terms)
        if self.subject == nil { self.subject = subject }
    }

    /// The message.
    public var description: String { message }

    /// The message, which `localizedDescription` shows.
    public var errorDescription: String? { message }

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
        case let error as AttachmentError: transportError(in: error.underlying)
        case let error as PreparedFileError: transportError(in: error.underlying)
        default: nil
        }
    }

    /// The server's code, where an error carries one.
    static func serverCode(of error: any Error) -> String? {
        switch error {
        case OfficerError.conflict(_, _, let code), OfficerError.badRequest(_, _, let code),
            OfficerError.notFound(_, _, let code):
            code
        case OfficerError.invalidCredentials: "invalid_credentials"
        case ObjectStoreError.server(_, _, let code, _), ObjectStoreError.accessDenied(_, let code, _): code
        case RemoteActionError.server(_, let inner), RemoteActionError.actionFailed(_, _, _, let inner):
            serverCode(of: inner)
        case RemoteActionError.outputExists: "exists"
        case let error as AttachmentError: serverCode(of: error.underlying)
        case let error as PreparedFileError: serverCode(of: error.underlying)
        case let error as OfficerFilesError: error.serverCode
        // Refused before asking for the reason the server gives this code: an app checks one code, not two.
        case FrontDoorRefusal.exists: "exists"
        default: nil
        }
    }
}

extension OfficerFiles {
    /// The terms this front door's failures are told in: its server, named remotes and object stores.
    package var locationNames: LocationNames { LocationNames(configuration: configuration) }

    /// `error` as this front door tells it: one line in the user's terms, its category and what it concerns.
    package func report(_ error: any Error) -> OfficerFilesError { OfficerFilesError(error, terms: locationNames) }
}

extension Error {
    /// The error beneath the front door's report (``OfficerFilesError/underlying``), for code that tells the
    /// layers' errors apart; any other error as it is.
    package var beneathReport: any Error { (self as? OfficerFilesError)?.underlying ?? self }
}

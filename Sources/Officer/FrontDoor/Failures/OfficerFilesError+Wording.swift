import FileModel
import Foundation
import HTTP
import Journal
import Preview
import Transfer

/// The one place each layer's errors are put in the user's terms.
extension OfficerFilesError {
    /// The line for `error` and the subject it names.
    static func wording(of error: any Error, terms: LocationNames) -> (message: String, subject: String?) {
        switch error {
        case let error as HTTPError: return http(error, subject: nil, terms: terms)
        case let error as OfficerError: return officer(error, terms: terms)
        case let error as DownloadError: return download(error, terms: terms)
        case let error as UploadError: return upload(error, terms: terms)
        case let error as ObjectStoreError: return objectStore(error, terms: terms)
        case let error as VipsError: return (error.wording, nil)
        case let error as ImageError: return (error.wording, nil)
        case let error as RemoteActionError:
            switch error {
            case .server(_, let inner): return wording(of: inner, terms: terms)
            case .upload(_, let inner): return wording(of: inner, terms: terms)
            case .download(_, let inner): return wording(of: inner, terms: terms)
            case .outputExists(_, let output): return (error.description, output)
            case .actionFailed(let target, _, _, _): return (error.description, target)
            default: return (error.description, nil)
            }
        case let error as LocalFileError: return (error.description, error.path)
        case let error as PreparedFileError:
            var line = wording(of: error.underlying, terms: terms).message
            if let prepared = error.prepared { line = line.replacingOccurrences(of: prepared, with: error.photo) }
            return (line.hasPrefix(error.photo) ? line : "\(error.photo): \(line)", error.photo)
        case let error as AttachmentError:
            let inner = wording(of: error.underlying, terms: terms)
            let kept = error.sent.isEmpty ? "" : " (\(error.sent.count) sent before it)"
            let line = inner.message.hasPrefix(error.file) ? inner.message : "\(error.file): \(inner.message)"
            return (line + kept, error.file)
        default:
            // What Foundation's file calls throw (a folder FileManager could not make or remove): its path and the
            // system's words for its error number, never the NSError's own text (that stays in `detail`, for -v).
            if let code = SystemWording.posixCode(of: error) {
                let path = (error as NSError).userInfo[NSFilePathErrorKey] as? String
                return ((path.map { "\($0): " } ?? "") + SystemWording.words(for: code), path)
            }
            return ("\(error)", nil)
        }
    }

    static func http(_ error: HTTPError, subject: String?, terms: LocationNames) -> (message: String, subject: String?)
    {
        guard let label = error.requestLabel else {
            return (error.wording(subject: subject ?? "", server: ""), subject)
        }
        let named = terms.subject(ofRequest: label)
        let subject = subject ?? named.subject
        return (error.wording(subject: subject, server: terms.serverName(named.server)), subject)
    }

    static func officer(_ error: OfficerError, terms: LocationNames) -> (message: String, subject: String?) {
        switch error {
        case .transport(let inner, let subject): return http(inner, subject: subject, terms: terms)
        case .notSignedIn(let server, let reason): return ("\(terms.serverName(server)): \(reason)", server)
        case .server(let request, let status, let message):
            let subject = terms.subject(ofRequest: request).subject
            let words = message.hasPrefix(subject) ? message : "\(subject): \(message)"
            return ("\(words) (the server failed: \(status))", subject)
        case .notOfficerServer(let url, let detail): return ("no Officer server at \(url) (\(detail))", url)
        case .malformedResponse(let request, let detail):
            let subject = terms.subject(ofRequest: request)
            return ("\(subject.subject): the answer is not what an Officer server sends (\(detail))", subject.subject)
        case .notOffered(let request, let feature):
            let server = terms.serverName(terms.subject(ofRequest: request).server)
            return ("\(server): the server does not offer \(feature)", nil)
        default: return (error.description, nil)
        }
    }

    static func download(_ error: DownloadError, terms: LocationNames) -> (message: String, subject: String?) {
        switch error {
        case .transfer(let inner): return http(inner, subject: nil, terms: terms)
        case .server(let url, let status, let message):
            let subject = terms.subject(ofRequest: url).subject
            if status == 404 { return ("\(subject): no such file or folder", subject) }
            // The server's words start with its own form of the path: the user's goes there instead.
            let words =
                message.hasPrefix("/")
                ? message.split(separator: ":", maxSplits: 1).last.map { $0.trimmingPrefix(" ") } : nil
            return (
                "\(subject): "
                    + (words.map(String.init)
                        ?? "the server answered \(status)\(message.isEmpty ? "" : " (\(message))")"),
                subject
            )
        case .unstable(let url):
            let subject = terms.subject(ofRequest: url).subject
            return ("\(subject): the file kept changing on the server; try again later", subject)
        case .damagedStream(let url, let output, _, _):
            let subject = terms.subject(ofRequest: url).subject
            return (
                "\(subject): the bytes written to \(output) were damaged on the way (they do not match the server's checksum)",
                subject
            )
        case .unexpectedAnswer(let url, let reason):
            let subject = terms.subject(ofRequest: url).subject
            return ("\(subject): the server's answer does not fit what was asked (\(reason))", subject)
        // The local side: the file the message names is what it concerns.
        case .destinationExists(let path), .destinationIsDirectory(let path), .noSuchFolder(let path),
            .busy(let path), .checksumMismatch(let path, _, _), .lengthMismatch(let path, _, _),
            .localFile(let path, _):
            return (error.description, path)
        default: return (error.description, nil)
        }
    }

    static func upload(_ error: UploadError, terms: LocationNames) -> (message: String, subject: String?) {
        switch error {
        case .transfer(let inner): return http(inner, subject: nil, terms: terms)
        case .server(let request, let status, let message):
            let subject = terms.subject(ofRequest: request).subject
            return (
                "\(subject): the server refused the upload (\(status)\(message.isEmpty ? "" : ": " + message))", subject
            )
        case .protocolViolation(let request, let detail):
            let server = terms.serverName(terms.subject(ofRequest: request).server)
            return ("\(server): the server's answer to a resumable upload breaks the protocol (\(detail))", nil)
        case .notTus(let url):
            return ("\(terms.serverName(terms.subject(ofRequest: url).server)): does not take resumable uploads", nil)
        case .lengthRequired(let url):
            return (
                "\(terms.serverName(terms.subject(ofRequest: url).server)): does not take uploads of unknown length",
                nil
            )
        default: return (error.description, nil)
        }
    }

    static func objectStore(_ error: ObjectStoreError, terms: LocationNames) -> (message: String, subject: String?) {
        switch error {
        case .transfer(let inner): return http(inner, subject: nil, terms: terms)
        case .server(let request, let status, let code, let message):
            let subject = terms.subject(ofRequest: request).subject
            return (
                "\(subject): the store answered \(status)\(code.map { " \($0)" } ?? "")\(message.isEmpty ? "" : ": " + message)",
                subject
            )
        case .accessDenied(let request, let code, let message):
            let subject = terms.subject(ofRequest: request).subject
            return (
                "\(subject): access denied\(code.map { " (\($0))" } ?? ""): \(message); check the remote's access key and secret",
                subject
            )
        case .clockSkewed(let request, let storeTime):
            let subject = terms.subject(ofRequest: request).subject
            return ("\(subject): \(ObjectStoreError.clockWords(storeTime))", subject)
        case .malformedAnswer(let request, _):
            let subject = terms.subject(ofRequest: request).subject
            return ("\(subject): the answer is not an S3 store's", subject)
        case .integrity(let request, let detail):
            let subject = terms.subject(ofRequest: request).subject
            return ("\(subject): \(detail)", subject)
        default: return (error.description, nil)
        }
    }
}

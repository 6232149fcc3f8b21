import FileModel
import HTTP

/// Why a request to an S3-compatible store failed, with the store's own error code where it gave one.
package enum ObjectStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The store answered with an error (`code` from its XML body, e.g. `SlowDown`, `InvalidPart`).
    case server(request: String, status: Int, code: String?, message: String)
    /// The bucket does not exist.
    case noSuchBucket(bucket: String)
    /// No object under this key.
    case noSuchKey(bucket: String, key: String)
    /// Neither an object nor any object below this key, which was named as a folder (`photos/2024/`).
    case noSuchFolder(bucket: String, key: String)
    /// The keys were refused (`InvalidAccessKeyId`, `SignatureDoesNotMatch`, `AccessDenied`).
    case accessDenied(request: String, code: String?, message: String)
    /// The store refused the request's time (`RequestTimeTooSkewed`): this machine's clock is off from the store's
    /// (`Date` of its answer, when it gave one).
    case clockSkewed(request: String, storeTime: String?)
    /// The answer was not what S3 sends.
    case malformedAnswer(request: String, detail: String)
    /// A network failure that retries did not overcome.
    case transfer(HTTPError)
    /// A local file could not be read or written.
    case localFile(path: String, message: String)
    /// The store holds other bytes than were sent (an ETag that is not the MD5 sent).
    case integrity(request: String, detail: String)
    /// An endpoint, region, bucket or key that cannot be used.
    case invalidAddress(String, reason: String)

    /// What a store that refused the request's time says, with its own time where it gave one.
    package static func clockWords(_ storeTime: String?) -> String {
        "the store refused the request's time: this machine's clock is off from the store's"
            + (storeTime.map { " (the store's time is \($0))" } ?? "") + "; set the clock right (NTP) and run it again"
    }

    /// A one-line message.
    package var description: String {
        switch self {
        case .server(let request, let status, let code, let message):
            "\(request): the store answered \(status)\(code.map { " \($0)" } ?? ""): \(message)"
        case .noSuchBucket(let bucket): "\(bucket): no such bucket"
        case .noSuchKey(let bucket, let key): "\(bucket)/\(key): no such object"
        case .noSuchFolder(let bucket, let key): "\(bucket)/\(key): no such folder"
        case .accessDenied(let request, let code, let message):
            "\(request): access denied\(code.map { " (\($0))" } ?? ""): \(message); check the remote's access key and secret"
        case .clockSkewed(let request, let storeTime):
            "\(request): \(ObjectStoreError.clockWords(storeTime))"
        case .malformedAnswer(let request, let detail): "\(request): not an S3 answer: \(detail)"
        case .transfer(let error): error.description
        case .localFile(let path, let message): "\(path): \(message)"
        case .integrity(let request, let detail): "\(request): \(detail)"
        case .invalidAddress(let text, let reason): "\(text): \(reason)"
        }
    }
}

/// One event of `watch`, in JSON (a stream, one per line): schema `watch-event`.
struct WatchRecord: Encodable, Sendable {
    /// `uploaded`, `failed`, `deleted`, `waiting` or `caught-up`.
    var type: String
    /// `failed`, `deleted`: the local file.
    var path: String?
    /// `uploaded`: the local file and where it went.
    var source: String?
    var destination: String?
    /// `uploaded`: bytes sent.
    var size: Int64?
    /// `uploaded`: seconds the file was left alone before it went.
    var settledSeconds: Double?
    /// `failed`, `waiting`: why, in the words of an error line.
    var reason: String?
    /// `waiting`: seconds until the next attempt.
    var retryInSeconds: Double?
    /// `caught-up`: files uploaded and failed while catching up.
    var uploaded: Int?
    var failed: Int?
}

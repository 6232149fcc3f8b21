/// How long a request with a body took to a server, the body's bytes included: what the next upload to it sizes
/// its first chunk from.
struct BodyTiming: Equatable, Sendable {
    /// The body's bytes the server confirmed.
    var bytes: Int64
    /// From the request's start to its answer.
    var seconds: Double
}

extension Result {
    /// What `body` ended with, as a value: for a question asked beside another (an `async let`), whose answer is
    /// awaited on every way out rather than cancelled with its scope (a cancelled request costs its connection).
    package static func awaiting(_ body: () async throws(Failure) -> Success) async -> Result<Success, Failure> {
        do throws(Failure) {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}

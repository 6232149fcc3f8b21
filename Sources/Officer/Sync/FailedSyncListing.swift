import FileModel

/// A listing that fails at its first step (its remote could not be reached to start it).
final class FailedSyncListing: SyncRemoteIterator {
    private let error: any Error

    init(_ error: any Error) { self.error = error }

    func next() async throws -> Result<SyncItem, SyncNameError>? { throw error }
}

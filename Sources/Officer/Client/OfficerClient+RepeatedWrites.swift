import FileModel
import HTTP
import Transfer

extension OfficerClient {
    /// What a failed call means for another attempt, by the one classification: a status worth waiting for
    /// (a 5xx, 408, 423, 429) or a failure on the way (a connection reset, a timeout).
    static func verdict(for error: OfficerError, policy: RetryPolicy) -> RetryVerdict {
        switch error {
        case .server(_, let status, _):
            policy.retryableStatuses.contains(status) ? .again(reason: error.description, retryAfter: nil) : .final
        case .transport(let inner, _): policy.verdict(for: inner)
        default: .final
        }
    }

    /// Sends a write that is not idempotent (a move, a copy, a rename, a folder or file made, a removal) and, after
    /// a failure that may have been applied before its answer was lost, asks the server first: `applied` returns
    /// the result when the server already shows the change, and that counts as success (so a 409 or 404 on a retry
    /// of an applied change is never reported); otherwise the write is sent again, in the one retry loop. Writes
    /// that fail for a reason of the request (a 409 on the first attempt, a 400) are never repeated.
    func repeatingWrite<T>(
        _ attempt: () async throws(OfficerError) -> T, applied: () async -> T?
    ) async throws(OfficerError) -> T {
        let policy = http.configuration.retry
        let loop = RetryLoop(request: policy, clock: http.configuration.clock)
        do {
            return try await loop.run { () async throws -> RetryStep<T> in
                // After a failure that may have been applied: the server is asked before the write goes again.
                if loop.failures > 0, let done = await applied() { return .done(done) }
                do throws(OfficerError) {
                    return .done(try await attempt())
                } catch {
                    if loop.failures > 0, let done = await applied() { return .done(done) }
                    guard
                        let step = RetryStep<T>.after(
                            Self.verdict(for: error, policy: policy), otherwise: { _ in throw error })
                    else { throw error }
                    return step
                }
            }
        } catch let error as OfficerError {
            throw error
        } catch {
            throw .transport(.cancelled(request: "write"))
        }
    }

    /// The entry at `path` as its folder's listing shows it (the listing is an endpoint every Officer server has);
    /// nil when nothing is there or the server cannot be asked.
    func listedEntry(_ path: RemotePath) async -> FileEntry? {
        if case .present(let entry) = await listedState(path) { return entry }
        return nil
    }

    /// Whether the listing of `path`'s folder shows it: present, absent, or unknown when the server cannot be asked
    /// (an unanswered question is never taken for an absence).
    func listedState(_ path: RemotePath) async -> ListedState {
        guard !path.isRoot else { return .unknown }
        do {
            return try await entryInListing(path).map(ListedState.present) ?? .absent
        } catch {
            return .unknown
        }
    }

    /// The entry at `path` as the listing of its folder shows it, nil when nothing of that name is there or the
    /// folder itself is gone: the one lookup `stat` without the endpoint, write checks and upload confirmations share.
    func entryInListing(_ path: RemotePath) async throws(OfficerError) -> FileEntry? {
        let listing: DirectoryListing
        do {
            listing = try await list(path.parent)
        } catch {
            if case .notFound = error { return nil }
            throw error
        }
        return listing.entries.first { $0.name == path.name }
    }
}

/// What a folder's listing says of one path.
enum ListedState {
    /// This entry is there.
    case present(FileEntry)
    /// Nothing of that name (or its folder is gone).
    case absent
    /// The server could not be asked.
    case unknown
}

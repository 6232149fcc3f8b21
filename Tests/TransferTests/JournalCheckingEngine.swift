import FileModel
import Foundation
import Journal

@testable import HTTP

/// A real engine whose task releases are checked against the journal: when a download's piece is released, the
/// journal must already hold it (the property that lets a process be killed at any moment without a piece asked
/// twice of an engine whose tasks outlive it). It records what it saw; it changes nothing it carries.
final class JournalCheckingEngine: WrappingEngine, Sendable {
    let engine: any HTTPEngine
    let journal: String
    /// Each release: the label and whether the journal held the piece then.
    let releases = LockedValue<[(label: String, recorded: Bool)]>([])
    /// The labels of the requests sent, in order.
    let sent = LockedValue<[String]>([])

    init(_ engine: any HTTPEngine, journal: String) {
        self.engine = engine
        self.journal = journal
    }

    func perform(
        _ request: HTTPRequest, configuration: HTTPClientConfiguration,
        onProgress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> HTTPResponse {
        if let label = request.transferLabel { sent.withLock { $0.append(label) } }
        return try await engine.perform(request, configuration: configuration, onProgress: onProgress)
    }

    func releaseTask(labelled label: String) async {
        releases.withLock { $0.append((label, journalHolds(label))) }
        await engine.releaseTask(labelled: label)
    }

    /// Whether the journal's range `#INDEX` reaches past `THROUGH` of a `download PATH #INDEX FROM-THROUGH` label.
    private func journalHolds(_ label: String) -> Bool {
        let words = label.split(separator: " ")
        guard words.count >= 4, let index = Int(words[words.count - 2].dropFirst()),
            let through = Int64(words[words.count - 1].split(separator: "-").last ?? "")
        else { return false }
        let segments = ((try? TransferJournal(watching: journal).downloads()) ?? []).flatMap(\.segments)
        return segments.contains { $0.index == index && $0.start + $0.done > through }
    }
}

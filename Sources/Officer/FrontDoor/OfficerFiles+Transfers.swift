import FileModel
import Foundation
import HTTP
import Journal
import Platform
import Transfer

/// An upload or a download the journal keeps because it did not finish.
package enum JournaledTransfer: Sendable, Equatable {
    /// A tus upload: the local file, its target, the parts' upload URLs and confirmed offsets.
    case upload(TransferJournal.Upload)
    /// A download: the URL, the destination, the temp file and the ranges done.
    case download(TransferJournal.Download)
    /// A multipart upload to an object store: the store holds its finished parts (asked on resume).
    case objectUpload(TransferJournal.ObjectUpload)

    /// Bytes in place: confirmed by the server (uploads), written and journaled (downloads).
    package var done: Int64 {
        switch self {
        case .upload(let upload): upload.parts.reduce(0) { $0 + $1.offset }
        case .download(let download): download.segments.reduce(0) { $0 + $1.done }
        case .objectUpload: 0
        }
    }

    /// The whole size, when known.
    package var total: Int64? {
        switch self {
        case .upload(let upload): upload.fingerprint.size
        case .download(let download): download.total
        case .objectUpload(let upload): upload.fingerprint.size
        }
    }
}

/// A transfer that cannot be discarded because a running process holds it.
package struct TransferHeldError: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// The transfer.
    package var transfer: JournaledTransfer
    /// One line naming it.
    package var description: String {
        switch transfer {
        case .upload(let upload): "\(upload.localPath): a running transfer holds this upload; left as it is"
        case .objectUpload(let upload): "\(upload.localPath): a running transfer holds this upload; left as it is"
        case .download(let download): "\(download.destination): a running transfer holds this download; left as it is"
        }
    }
    /// Busy, not broken.
    package var category: ErrorCategory { .conflict }
}

/// An upload or a download that stopped before its end, as ``OfficerFiles/unfinishedTransfers()`` lists it.
public struct UnfinishedTransfer: Sendable, Equatable, Identifiable {
    /// What the journal keys it by.
    public let id: String
    /// The local file: what an upload sends, where a download lands.
    public let file: URL
    /// The other side, as a location is written (`officer:/Photos/a.jpg`, `s3:bucket/key`, or a URL).
    public let remote: String
    /// True for an upload.
    public let isUpload: Bool
    /// Bytes in place: confirmed by the server (uploads), written here (downloads).
    public let doneBytes: Int64
    /// The whole size, when known.
    public let totalBytes: Int64?
    /// The journal's record.
    package let record: JournaledTransfer

    package init(_ record: JournaledTransfer, names: LocationNames) {
        self.record = record
        doneBytes = record.done
        totalBytes = record.total
        switch record {
        case .upload(let upload):
            id = "upload:" + upload.key
            file = URL(fileURLWithPath: upload.localPath)
            remote = upload.label
            isUpload = true
        case .objectUpload(let upload):
            id = "upload:" + upload.key
            file = URL(fileURLWithPath: upload.localPath)
            remote = names.objectLocation(
                endpoint: upload.endpoint, bucket: upload.bucket, key: upload.objectKey, remote: upload.remote)
            isUpload = true
        case .download(let download):
            id = "download:" + download.destination
            file = URL(fileURLWithPath: download.destination)
            remote = names.location(ofURL: download.url, remote: download.source)
            isUpload = false
        }
    }
}

extension UnfinishedTransfer {
    /// Where it goes from, as a location is written (the local file for an upload).
    package var source: String { isUpload ? file.path : remote }
    /// Where it goes to.
    package var destination: String { isUpload ? remote : file.path }

    /// How far it got, in words: the bytes in place of the whole, or how a resume will go where a count says
    /// nothing (an object store's parts are asked of the store; a server without ranges starts over).
    package var amount: String {
        switch record {
        case .objectUpload:
            return "\(ByteCountFormat.string(totalBytes ?? 0)) in parts (the store says which it holds on resume)"
        case .download(let download) where download.segments.isEmpty:
            return "\(Self.amount(doneBytes, totalBytes))  (no ranges on the server: a rerun starts over)"
        case .upload, .download: return Self.amount(doneBytes, totalBytes)
        }
    }

    private static func amount(_ done: Int64, _ total: Int64?) -> String {
        guard let total, total > 0 else { return ByteCountFormat.string(done) }
        return "\(ByteCountFormat.string(done)) / \(ByteCountFormat.string(total)) (\(done * 100 / total)%)"
    }

    /// What giving it up did, in one line.
    package var discarded: String {
        switch record {
        case .upload: "removed the partial upload of \(file.path) to \(remote)"
        case .objectUpload: "aborted the multipart upload of \(file.path) to \(remote)"
        case .download: "removed the partial download of \(file.path)"
        }
    }
}

extension OfficerFiles {
    /// The unfinished transfers now (what ``unfinishedTransfers()`` gives first), for a command that reads them
    /// once.
    package func unfinishedTransferList() throws -> [UnfinishedTransfer] {
        let names = locationNames
        return try journaledTransfers().map { UnfinishedTransfer($0, names: names) }
    }
}

/// What a resumed transfer ended with.
package enum TransferOutcome: Sendable, Equatable {
    /// An upload finished.
    case uploaded(UploadResult)
    /// A download finished.
    case downloaded(DownloadResult)
}

extension OfficerFiles {
    /// Every unfinished transfer in the journal (none without one), uploads first.
    package func journaledTransfers() throws -> [JournaledTransfer] {
        guard let journal = try journal else { return [] }
        // A download whose temp file is gone reached its final name (or was removed by hand): nothing is left to
        // resume. Its record stays only when the journal could not be written at the end; it is forgotten now.
        let downloads = try journal.downloads().filter { download in
            guard access(download.tempPath, F_OK) != 0 else { return true }
            try? journal.remove(destination: download.destination)
            return false
        }
        return try journal.uploads().map { .upload($0) } + journal.objectUploads().map { .objectUpload($0) }
            + downloads.map { .download($0) }
    }

    /// Continues an unfinished transfer where the server (uploads) or the journal (downloads) says it stopped.
    /// The token goes along only to this front door's server; a download of another URL goes without it.
    package func resume(_ transfer: JournaledTransfer) -> TransferOperation<TransferOutcome> {
        TransferOperation { report in
            switch transfer {
            case .upload(let upload):
                var target = upload.target
                target.credential = self.credential(for: target.tusEndpoint)
                return .uploaded(
                    try await self.server.uploader().upload(file: upload.localPath, to: target) { report($0) })
            case .objectUpload(let upload):
                let store = try self.objectStore(endpoint: upload.endpoint, named: upload.remote)
                return .uploaded(
                    try await store.uploader.upload(
                        file: upload.localPath, bucket: upload.bucket, key: upload.objectKey
                    ) { report($0) })
            case .download(let download):
                if let (store, bucket) = try self.objectStore(forObjectURL: download.url, named: download.source) {
                    return .downloaded(
                        try await store.downloader(bucket: bucket).download(
                            from: download.url, credential: nil, to: download.destination
                        ) { report($0) })
                }
                return .downloaded(
                    try await SegmentedDownloader(http: self.http, journal: try self.journal).download(
                        from: download.url, credential: self.credential(for: download.url), to: download.destination
                    ) { report($0) })
            }
        }
    }

    /// Gives an unfinished transfer up: an upload is terminated on the server (its parts deleted), a download's
    /// temp file removed; either way the journal forgets it.
    package func discard(_ transfer: JournaledTransfer) async throws {
        if isRunning(transfer) { throw TransferHeldError(transfer: transfer) }
        switch transfer {
        case .upload(let upload):
            try await server.uploader().terminate(upload, credential: credential(for: upload.target.tusEndpoint))
        case .objectUpload(let upload):
            try await objectStore(endpoint: upload.endpoint, named: upload.remote).abort(upload)
        case .download(let download):
            unlink(download.tempPath)
            try journal?.remove(destination: download.destination)
        }
    }

    /// True while a process is running the transfer: a download's temp file is locked by its downloader, an
    /// upload's lock in the journal's folder by its uploader.
    package func isRunning(_ transfer: JournaledTransfer) -> Bool {
        switch transfer {
        case .upload(let upload): return (try? journal)??.isHeld(transfer: upload.key) ?? false
        case .objectUpload: return false
        case .download(let download):
            guard let file = try? OpenFile(download.tempPath, O_RDONLY) else { return false }
            defer { withExtendedLifetime(file) {} }
            guard flock(file.descriptor, LOCK_EX | LOCK_NB) == 0 else { return true }
            flock(file.descriptor, LOCK_UN)
            return false
        }
    }

    /// The uploads and downloads that stopped before their end (cancelled, killed, cut off), uploads first: the
    /// list now, then again whenever the journal changes (one starts, moves on, finishes or is given up, in this
    /// process or another sharing the journal). Ends when its reader stops; without a journal it gives one empty
    /// list.
    public func unfinishedTransfers() -> AsyncStream<[UnfinishedTransfer]> {
        JournalObservation.stream(of: try? journal, clock: configuration.http.clock) { [self] in
            try unfinishedTransferList()
        }
    }

    /// Continues an unfinished transfer where the server (uploads) or the journal (downloads) says it stopped.
    public func resume(_ transfer: UnfinishedTransfer) -> FileOperation<Void> {
        reported(
            nil,
            TransferOperation { report in
                try await self.reporting(nil) {
                    let operation = self.resume(transfer.record)
                    for await event in operation { report(event) }
                    _ = try await operation.value
                }
            })
    }

    /// Gives an unfinished transfer up: an upload's parts are deleted on the server, a download's partial file
    /// here; a transfer a running process holds is left as it is (a conflict).
    public func discard(_ transfer: UnfinishedTransfer) async throws(OfficerFilesError) {
        try await reporting(nil) { try await discard(transfer.record) }
    }

    /// This front door's token, for `url` only when it is on the server's own origin (the one rule for a token).
    func credential(for url: String) -> BearerCredential? { (try? client)?.credential?.scoped(to: url) }
}

/// The rules of one upload to an object store, as a value: an event in (the journal's record, the parts the
/// store lists, whether the object already holds the file, the parts sent), the next step out. No I/O, no clock,
/// no lock: the driver (`ObjectStoreUploader.upload`) reads the journal, asks the store and sends the parts.
///
/// Rules: below the multipart threshold a file goes in one PUT; above it, a journaled upload of the same file
/// version is continued with the parts the store lists that are the local bytes (the driver checks each part's
/// ETag against their MD5), and only the others are sent; a journaled upload of another version is aborted
/// first; one the store no longer has was completed by a run killed before it could say so, when the object
/// holds the file (its stored SHA-256, size and time), and nothing is sent, else the upload starts over; the
/// parts sent, the file is checked to be the version sent before the store completes the object.
struct ObjectUploadMachine: Sendable {
    /// What the journal keeps of an earlier run's upload of this file to this key.
    struct Record: Equatable, Sendable {
        /// The store's id of the upload.
        var uploadID: String
        /// The local file is still the version it began with.
        var sameFile: Bool
    }

    /// What the driver does next.
    enum Action: Equatable, Sendable {
        /// One PUT of the whole file: the end.
        case putWhole
        /// Read the journal's record: ``Event/recordRead(_:)``.
        case readRecord
        /// Abort the earlier upload `uploadID` (of another version of the file): ``Event/aborted``.
        case abort(uploadID: String)
        /// Ask the store which parts of `uploadID` it holds: ``Event/partsListed(held:)`` or ``Event/uploadGone``.
        case listParts(uploadID: String)
        /// Ask whether the object already holds the file: ``Event/storedEarlier(_:)``.
        case checkStoredEarlier
        /// Start a new upload and journal it: ``Event/started``.
        case start
        /// Send the parts the store lacks (all but `held`, by number), check the file is the version sent, complete
        /// the object and forget the upload: ``Event/completed``.
        case send(held: Set<Int>)
        /// Done: `storedEarlier` when an earlier run had already stored the file (nothing sent).
        case finish(storedEarlier: Bool)
    }

    /// What happened.
    enum Event: Equatable, Sendable {
        case recordRead(Record?)
        case aborted
        /// The store holds these parts of the upload, checked to be the local bytes.
        case partsListed(held: Set<Int>)
        /// The store no longer has the upload (`NoSuchUpload`); its journal record is gone.
        case uploadGone
        case storedEarlier(Bool)
        case started
        case completed
    }

    /// Something to tell beside the next action.
    enum Notice: Equatable, Sendable {
        /// The upload starts over: `reason`.
        case restarted(String)
    }

    /// The file's size.
    let size: Int64
    /// Files of at least this many bytes go in parts.
    let threshold: Int64

    private var phase = Phase.idle

    private enum Phase: Equatable {
        case idle, readingRecord, abortingStale, listing, checkingStored, starting, sending, ended
    }

    /// A machine for a file of `size` bytes, sent in parts from `threshold` bytes up.
    init(size: Int64, threshold: Int64) {
        self.size = size
        self.threshold = threshold
    }

    /// The first step.
    mutating func begin() -> Action {
        guard size >= threshold else { return ended(.putWhole) }
        phase = .readingRecord
        return .readRecord
    }

    /// The step after `event`, with what to tell first.
    mutating func handle(_ event: Event) -> (notices: [Notice], action: Action) {
        switch (phase, event) {
        case (.readingRecord, .recordRead(nil)):
            return ([], start())
        case (.readingRecord, .recordRead(let record?)):
            guard record.sameFile else {
                phase = .abortingStale
                return (
                    [.restarted("the local file changed since the interrupted upload")],
                    .abort(uploadID: record.uploadID)
                )
            }
            phase = .listing
            return ([], .listParts(uploadID: record.uploadID))
        case (.abortingStale, .aborted):
            return ([], start())
        case (.listing, .partsListed(let held)):
            phase = .sending
            return ([], .send(held: held))
        case (.listing, .uploadGone):
            phase = .checkingStored
            return ([], .checkStoredEarlier)
        case (.checkingStored, .storedEarlier(true)):
            return ([], ended(.finish(storedEarlier: true)))
        case (.checkingStored, .storedEarlier(false)):
            return ([.restarted("the store no longer has the unfinished upload")], start())
        case (.starting, .started):
            phase = .sending
            return ([], .send(held: []))
        case (.sending, .completed):
            return ([], ended(.finish(storedEarlier: false)))
        default:
            // An event out of turn is a driver's mistake: start over rather than complete something unchecked.
            return ([.restarted("unexpected \(event)")], start())
        }
    }

    private mutating func start() -> Action {
        phase = .starting
        return .start
    }

    private mutating func ended(_ action: Action) -> Action {
        phase = .ended
        return action
    }
}

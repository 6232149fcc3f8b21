import Journal

/// The rules of one download as a whole, as a value: which way the file comes (one stream, new ranges, or the
/// journaled ranges continued), what is asked of the server first, when the bytes are long enough to verify, and
/// when a download that found its file changed starts over or gives up. An event in (the journal's record, a HEAD's
/// answer, the ranges fetched, a restart asked for), the next step out. No I/O, no clock, no lock: the driver
/// (`SegmentedDownloader.download`) reads the journal, asks the server, fetches and verifies, so every rule is checked
/// in tests by tables of events alone.
///
/// Rules: a small file the caller knows the length of, with nothing journaled, comes in one GET without a HEAD; a
/// version the caller knows (strong ETag, ranges served) needs no HEAD either, nor does a file whose HEAD the caller
/// already asked (that answer is the probe's); a server that does not say it serves ranges is asked with one, unless
/// the caller knows it does; ranges need a length and a validator, else one journaled stream; a journaled download
/// continues only for the same URL, length and version (strong ETag, else Last-Modified), with every range trusted
/// up to what the temp file holds (after a reboot, up to what was flushed); continuing on Last-Modified alone
/// re-checks the bytes before each resume point; a restart ignores the journal; the third restart, or the second
/// edit found after the last byte, ends the download.
struct SegmentedDownloadMachine: Sendable {
    /// What the caller already knows of the file (its listing's or HEAD's answer).
    struct Known: Equatable, Sendable {
        /// Its length.
        var length: Int64?
        /// Its ETag.
        var etag: String?
        /// The server serves ranges of it.
        var servesRanges = false
        /// The answer to a HEAD the caller already made (beside its own first question): taken as the download's
        /// own probe, so no HEAD is asked again. Only a first attempt has one: a restart asks anew.
        var headAnswer: RemoteFileInfo?
    }

    /// How the ranges of a plan begin.
    enum Begin: Equatable, Sendable {
        /// The journaled ranges go on from what they hold.
        case resume
        /// A new record; the temp file is made `preallocated` bytes long (parallel ranges land in place), or grows
        /// from empty (nil: a single range).
        case fresh(preallocated: Int64?)
    }

    /// A download in ranges.
    struct Plan: Equatable, Sendable {
        /// The version every range is held to.
        var info: RemoteFileInfo
        /// The file's length.
        var total: Int64
        /// The ranges, with what each holds already.
        var segments: [TransferJournal.Segment]
        /// Whether they are new or continued.
        var begin: Begin

        /// Bytes already on disk.
        var resumed: Int64 { segments.reduce(0) { $0 + $1.done } }

        /// A fresh plan of several ranges cut into `perRange` times as many (at most 16, none under 1 MiB), fetched
        /// a connection's worth at a time in order: where the bytes are hashed as they land, the hash then follows
        /// the download instead of waiting for the first range and hashing the others after the last byte (four
        /// ranges of a GiB left three quarters of it, half a second, to hash at the end).
        func inPieces(_ perRange: Int) -> Plan {
            guard case .fresh = begin, segments.count > 1, perRange > 1 else { return self }
            let count = DownloadOptions.segmentCount(total: total, wanted: segments.count * perRange)
            var pieces = self
            pieces.segments = SegmentedDownloadMachine.ranges(count, of: total)
            return pieces
        }
    }

    /// What the driver does next.
    enum Action: Equatable, Sendable {
        /// Read the journal's record for the destination, and the temp file's size: ``Event/recordRead(_:partialSize:)``.
        case readRecord
        /// HEAD the file: ``Event/probed(_:)`` (nil: the server has no HEAD).
        case probe
        /// Ask whether the server serves ranges (`acceptRanges` is what its HEAD said): ``Event/rangesAnswered(_:)``.
        case askRanges(acceptRanges: String?)
        /// Fetch again the bytes before each resume point and compare them with the disk: ``Event/overlapsMatched``.
        case checkOverlaps(Plan)
        /// Fetch the plan's ranges: ``Event/fetched(written:fileSize:)``.
        case fetch(Plan)
        /// Verify the bytes, check the server still holds that version, and rename them into place: the end.
        case verify(Plan)
        /// One GET from the start, not resumable (`info` from the HEAD, if one was asked); `journaled` keeps a
        /// record without ranges so a killed run's temp file is listed and cleaned: the end.
        case streamWhole(info: RemoteFileInfo?, journaled: Bool)
        /// The download starts over (`refresh`: because the file changed; the caller may know its new version):
        /// tell `reason`, then ``begin(known:)`` again.
        case restart(reason: String, refresh: Bool)
        /// The download cannot go on.
        case fail(Failure)
    }

    /// Why a download failed.
    enum Failure: Equatable, Sendable {
        /// The file kept changing under the download; its temp file and record are dropped.
        case unstable
        /// The server's answers kept not fitting what was asked; its temp file and record are dropped.
        case unexpectedAnswer(reason: String)
        /// The ranges ended with `actual` bytes (or a temp file of that size), not `expected`.
        case lengthMismatch(expected: Int64, actual: Int64)
    }

    /// What happened.
    enum Event: Equatable, Sendable {
        /// The journal's record for the destination (nil: none), and the temp file's size.
        case recordRead(TransferJournal.Download?, partialSize: Int64)
        /// The HEAD's answer; nil when the server has no HEAD.
        case probed(RemoteFileInfo?)
        /// Whether the server serves ranges.
        case rangesAnswered(Bool)
        /// The bytes before every resume point are the server's.
        case overlapsMatched
        /// The ranges hold `written` bytes in all, in a temp file of `fileSize`.
        case fetched(written: Int64, fileSize: Int64)
        /// The download must start over: `changed`, the server's file changed (otherwise its answers did not fit);
        /// `afterLastByte`, found only once every byte was in (the file was edited as it streamed).
        case mustRestart(reason: String, changed: Bool, afterLastByte: Bool)
    }

    /// The URL the download fetches (a journaled record for another one is not continued).
    let url: String
    /// Ranges wanted (nil: by size).
    let wantedSegments: Int?
    /// This boot's identity: a record written in another boot trusts only its flushed bytes.
    let bootID: String

    private var known = Known()
    private var restarts = 0
    private var editedWhileStreaming = 0
    private var saved: TransferJournal.Download?
    private var partialSize: Int64 = 0
    private var phase = Phase.idle

    private enum Phase: Equatable {
        case idle, readingRecord, probing
        case askingRanges(RemoteFileInfo)
        case checkingOverlaps(Plan)
        case fetching(Plan)
        case ended
    }

    /// A machine for the download of `url`.
    init(url: String, wantedSegments: Int?, bootID: String) {
        self.url = url
        self.wantedSegments = wantedSegments
        self.bootID = bootID
    }

    /// The first step of an attempt, knowing what the caller knows now (again after each restart).
    mutating func begin(known: Known) -> Action {
        self.known = known
        phase = .readingRecord
        return .readRecord
    }

    /// The step after `event`.
    mutating func handle(_ event: Event) -> Action {
        switch (phase, event) {
        case (_, .mustRestart(let reason, let changed, let afterLastByte)):
            return restart(reason: reason, changed: changed, afterLastByte: afterLastByte)
        case (.readingRecord, .recordRead(let record, let size)):
            saved = record
            partialSize = size
            return afterRecord()
        case (.probing, .probed(var info)):
            // A server the caller knows serves ranges (an object store; OpenStack Swift's S3 layer sends no
            // Accept-Ranges) is not asked again.
            if known.servesRanges, info?.acceptRanges == nil { info?.acceptsRanges = true }
            guard let info, !info.acceptsRanges, let total = info.total, total > 0, info.rangeValidator != nil else {
                return plan(info)
            }
            phase = .askingRanges(info)
            return .askRanges(acceptRanges: info.acceptRanges)
        case (.askingRanges(var info), .rangesAnswered(let serves)):
            info.acceptsRanges = serves
            return plan(info)
        case (.checkingOverlaps(let plan), .overlapsMatched):
            phase = .fetching(plan)
            return .fetch(plan)
        case (.fetching(let plan), .fetched(let written, let fileSize)):
            phase = .ended
            guard written == plan.total, fileSize == plan.total else {
                return .fail(.lengthMismatch(expected: plan.total, actual: written))
            }
            return .verify(plan)
        default:
            phase = .ended
            return .fail(.unexpectedAnswer(reason: "unexpected \(event) while \(phase)"))
        }
    }

    // MARK: Rules

    private mutating func afterRecord() -> Action {
        if let length = known.length, length <= DownloadOptions.smallFileLimit, saved == nil {
            phase = .ended
            return .streamWhole(info: nil, journaled: false)
        }
        if known.servesRanges, let total = known.length, let etag = known.etag, !etag.hasPrefix("W/") {
            // What the caller's HEAD or listing said: the version every range is then held to (If-Match / If-Range).
            return plan(RemoteFileInfo(total: total, etag: etag, lastModified: nil, acceptsRanges: true))
        }
        phase = .probing
        if let answer = known.headAnswer { return handle(.probed(answer)) }
        return .probe
    }

    private mutating func plan(_ info: RemoteFileInfo?) -> Action {
        if restarts == 0, let saved, let info, let plan = resumption(of: saved, info: info) {
            if plan.resumed > 0, info.strongETag == nil {
                phase = .checkingOverlaps(plan)
                return .checkOverlaps(plan)
            }
            phase = .fetching(plan)
            return .fetch(plan)
        }
        guard let info, info.isResumable, let total = info.total else {
            // No ranges, no length or no validator: one stream from the start.
            phase = .ended
            return .streamWhole(info: info, journaled: true)
        }
        let count = DownloadOptions.segmentCount(total: total, wanted: wantedSegments)
        let plan = Plan(
            info: info, total: total, segments: Self.ranges(count, of: total),
            begin: .fresh(preallocated: count > 1 ? total : nil))
        phase = .fetching(plan)
        return .fetch(plan)
    }

    /// `count` ranges of equal length (within a byte) over `total` bytes, none done.
    static func ranges(_ count: Int, of total: Int64) -> [TransferJournal.Segment] {
        (0..<count).map { index in
            TransferJournal.Segment(
                index: index, start: total * Int64(index) / Int64(count),
                end: total * Int64(index + 1) / Int64(count) - 1, done: 0, synced: 0)
        }
    }

    /// The journaled ranges continued, when they are of this URL, length and version and the temp file holds their
    /// flushed bytes.
    private func resumption(of saved: TransferJournal.Download, info: RemoteFileInfo) -> Plan? {
        guard saved.url == url, info.isResumable, let total = info.total, saved.total == total,
            !saved.segments.isEmpty, saved.segments.allSatisfy({ $0.start + $0.synced <= partialSize })
        else { return nil }
        // The same version of the file: a strong ETag if the server has one, else Last-Modified.
        if let etag = info.strongETag {
            guard saved.etag == etag else { return nil }
        } else {
            guard saved.lastModified != nil, saved.lastModified == info.lastModified else { return nil }
        }
        let sameBoot = saved.bootID == bootID
        let segments = saved.segments.map { segment in
            var segment = segment
            // After a reboot only flushed bytes are trusted; after a crashed process the page cache holds the rest.
            segment.done = sameBoot ? segment.done : segment.synced
            // A range can never have more done than the file holds (a growing single range).
            segment.done = min(segment.done, max(0, partialSize - segment.start))
            segment.synced = min(segment.synced, segment.done)
            return segment
        }
        return Plan(info: info, total: total, segments: segments, begin: .resume)
    }

    /// A file being written to as it is read would be fetched forever: twice more at most, and an edit found after
    /// the last byte once, then a clear failure.
    private mutating func restart(reason: String, changed: Bool, afterLastByte: Bool) -> Action {
        restarts += 1
        if afterLastByte { editedWhileStreaming += 1 }
        guard restarts <= 2, editedWhileStreaming <= 1 else {
            phase = .ended
            return .fail(changed ? .unstable : .unexpectedAnswer(reason: reason))
        }
        phase = .idle
        return .restart(reason: reason, refresh: changed)
    }
}

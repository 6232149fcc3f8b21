import HTTP
import Journal
import Testing

@testable import Transfer

/// A download's whole-file rules as tables of events and the steps they must produce: which way the file comes,
/// what is asked first, when a journaled download continues, when it starts over and when it gives up. No server,
/// no journal, no clock.
@Suite struct SegmentedDownloadMachineTests {
    typealias Machine = SegmentedDownloadMachine
    typealias Segment = TransferJournal.Segment

    static let url = "http://127.0.0.1:1/file"
    static let mib: Int64 = 1 << 20
    static let strong = RemoteFileInfo(total: 100 * mib, etag: "\"v1\"", lastModified: nil, acceptsRanges: true)

    func machine(segments: Int? = nil, boot: String = "boot-1") -> Machine {
        Machine(url: Self.url, wantedSegments: segments, bootID: boot)
    }

    /// A journal record of `segments` for `url`, of the version `info` names, written in `boot`.
    func record(
        _ segments: [Segment], info: RemoteFileInfo = strong, url: String = url, boot: String = "boot-1"
    ) -> TransferJournal.Download {
        TransferJournal.Download(
            destination: "/tmp/file", url: url, tempPath: "/tmp/.file.part", etag: info.etag,
            lastModified: info.lastModified, total: info.total, bootID: boot, segments: segments)
    }

    /// Two halves of a 100 MiB file holding `done` bytes each (`synced` flushed).
    func halves(done: Int64, synced: Int64) -> [Segment] {
        [
            Segment(index: 0, start: 0, end: 50 * Self.mib - 1, done: done, synced: synced),
            Segment(index: 1, start: 50 * Self.mib, end: 100 * Self.mib - 1, done: done, synced: synced),
        ]
    }

    func plan(_ action: Machine.Action) -> Machine.Plan? {
        switch action {
        case .fetch(let plan), .checkOverlaps(let plan), .verify(let plan): plan
        default: nil
        }
    }

    @Test func aSmallFileOfKnownLengthWithNothingJournaledComesInOneGetWithoutAHead() {
        var download = machine()
        #expect(download.begin(known: .init(length: 1000)) == .readRecord)
        #expect(download.handle(.recordRead(nil, partialSize: 0)) == .streamWhole(info: nil, journaled: false))
    }

    @Test func aSmallFileWithARecordIsAskedAboutFirst() {
        var download = machine()
        _ = download.begin(known: .init(length: 1000))
        #expect(download.handle(.recordRead(record([]), partialSize: 0)) == .probe)
    }

    @Test func aVersionTheCallerKnowsNeedsNoHead() throws {
        var download = machine()
        _ = download.begin(known: .init(length: 100 * Self.mib, etag: "\"v1\"", servesRanges: true))
        let planned = try #require(plan(download.handle(.recordRead(nil, partialSize: 0))))
        #expect(planned.info.etag == "\"v1\"" && planned.total == 100 * Self.mib)
        #expect(planned.segments.count == 4 && planned.begin == .fresh(preallocated: 100 * Self.mib))
    }

    /// Bytes hashed as they land: the ranges cut in pieces, in order, covering the file without a gap or an
    /// overlap; a resumed plan keeps the pieces it was journaled in.
    @Test func aPlanHashedAsItLandsIsCutInPiecesInOrder() throws {
        var download = machine()
        _ = download.begin(known: .init(length: 100 * Self.mib, etag: "\"v1\"", servesRanges: true))
        let planned = try #require(plan(download.handle(.recordRead(nil, partialSize: 0))))
        let pieces = planned.inPieces(4)
        #expect(pieces.segments.map(\.index) == Array(0..<16) && pieces.total == planned.total)
        #expect(pieces.segments.first?.start == 0 && pieces.segments.last?.end == 100 * Self.mib - 1)
        #expect(zip(pieces.segments, pieces.segments.dropFirst()).allSatisfy { $0.end + 1 == $1.start })
        var resumed = pieces
        resumed.begin = .resume
        #expect(resumed.inPieces(4) == resumed)
    }

    @Test func aWeakETagTheCallerKnowsIsNotEnoughToSkipTheHead() {
        var download = machine()
        _ = download.begin(known: .init(length: 100 * Self.mib, etag: "W/\"v1\"", servesRanges: true))
        #expect(download.handle(.recordRead(nil, partialSize: 0)) == .probe)
    }

    /// A server the caller knows serves ranges (an object store) is not asked with a range when its HEAD does not
    /// say so (OpenStack Swift's S3 layer sends no Accept-Ranges): a round trip less before a large object's GETs.
    @Test func aServerKnownToServeRangesIsNotAskedWhenItsHeadIsSilent() throws {
        var silent = Self.strong
        silent.acceptsRanges = false
        var known = machine()
        _ = known.begin(known: .init(length: 100 * Self.mib, servesRanges: true))
        #expect(known.handle(.recordRead(nil, partialSize: 0)) == .probe)
        let planned = try #require(plan(known.handle(.probed(silent))))
        #expect(planned.info.acceptsRanges && planned.segments.count == 4)

        var unknown = machine()
        _ = unknown.begin(known: .init(length: 100 * Self.mib))
        _ = unknown.handle(.recordRead(nil, partialSize: 0))
        #expect(unknown.handle(.probed(silent)) == .askRanges(acceptRanges: nil))

        // A server that says it serves none is believed.
        var refusing = silent
        refusing.acceptRanges = "none"
        var said = machine()
        _ = said.begin(known: .init(length: 100 * Self.mib, servesRanges: true))
        _ = said.handle(.recordRead(nil, partialSize: 0))
        #expect(said.handle(.probed(refusing)) == .askRanges(acceptRanges: "none"))
    }

    /// A HEAD the caller asked beside its own first question is the probe's answer: no second HEAD, and every rule
    /// a probe's answer meets applies to it (a journaled download of that version continues; a server that does not
    /// say it serves ranges is asked).
    @Test func aHeadTheCallerAskedIsTheProbesAnswer() throws {
        var fresh = machine()
        _ = fresh.begin(known: .init(headAnswer: Self.strong))
        let planned = try #require(plan(fresh.handle(.recordRead(nil, partialSize: 0))))
        #expect(planned.info == Self.strong && planned.segments.count == 4)

        var resumed = machine()
        _ = resumed.begin(known: .init(headAnswer: Self.strong))
        let saved = halves(done: 10 * Self.mib, synced: 10 * Self.mib)
        let continued = try #require(plan(resumed.handle(.recordRead(record(saved), partialSize: 100 * Self.mib))))
        #expect(continued.begin == .resume && continued.resumed == 20 * Self.mib)

        var silent = machine()
        var unsaid = Self.strong
        unsaid.acceptsRanges = false
        _ = silent.begin(known: .init(headAnswer: unsaid))
        #expect(silent.handle(.recordRead(nil, partialSize: 0)) == .askRanges(acceptRanges: nil))
    }

    @Test func newRangesCoverTheFileExactlyAndASingleRangeGrowsTheFile() throws {
        var download = machine(segments: 3)
        _ = download.begin(known: .init())
        _ = download.handle(.recordRead(nil, partialSize: 0))
        let three = try #require(plan(download.handle(.probed(Self.strong))))
        #expect(three.segments.map(\.start) == [0, 34_952_533, 69_905_066])
        #expect(three.segments.last?.end == 100 * Self.mib - 1)
        #expect(zip(three.segments, three.segments.dropFirst()).allSatisfy { $0.end + 1 == $1.start })

        var small = machine()
        _ = small.begin(known: .init())
        _ = small.handle(.recordRead(nil, partialSize: 0))
        let info = RemoteFileInfo(total: 10 * Self.mib, etag: "\"a\"", lastModified: nil, acceptsRanges: true)
        #expect(plan(small.handle(.probed(info)))?.begin == .fresh(preallocated: nil))
    }

    @Test func aServerThatDoesNotSayItServesRangesIsAskedAndItsAnswerDecides() throws {
        var quiet = RemoteFileInfo(total: 10 * Self.mib, etag: "\"a\"", lastModified: nil, acceptsRanges: false)
        quiet.acceptRanges = nil
        var yes = machine()
        _ = yes.begin(known: .init())
        _ = yes.handle(.recordRead(nil, partialSize: 0))
        #expect(yes.handle(.probed(quiet)) == .askRanges(acceptRanges: nil))
        #expect(plan(yes.handle(.rangesAnswered(true)))?.info.acceptsRanges == true)

        var no = machine()
        _ = no.begin(known: .init())
        _ = no.handle(.recordRead(nil, partialSize: 0))
        _ = no.handle(.probed(quiet))
        guard case .streamWhole(let info, journaled: true) = no.handle(.rangesAnswered(false)) else {
            Issue.record("no ranges must come in one journaled stream")
            return
        }
        #expect(info?.acceptsRanges == false)
    }

    @Test(arguments: [
        RemoteFileInfo(total: nil, etag: "\"a\"", lastModified: nil, acceptsRanges: true),  // no length
        RemoteFileInfo(total: 10, etag: "W/\"a\"", lastModified: nil, acceptsRanges: true),  // no usable validator
    ])
    func withoutALengthOrAValidatorTheFileComesInOneJournaledStream(info: RemoteFileInfo) {
        var download = machine()
        _ = download.begin(known: .init())
        _ = download.handle(.recordRead(nil, partialSize: 0))
        #expect(download.handle(.probed(info)) == .streamWhole(info: info, journaled: true))
    }

    @Test func aServerWithoutHeadStillGetsTheFileInOneStream() {
        var download = machine()
        _ = download.begin(known: .init())
        _ = download.handle(.recordRead(nil, partialSize: 0))
        #expect(download.handle(.probed(nil)) == .streamWhole(info: nil, journaled: true))
    }

    @Test func aJournaledDownloadOfTheSameVersionContinuesFromWhatItHolds() throws {
        var download = machine()
        _ = download.begin(known: .init())
        _ = download.handle(
            .recordRead(record(halves(done: 10 * Self.mib, synced: 4 * Self.mib)), partialSize: 100 * Self.mib))
        let action = download.handle(.probed(Self.strong))
        // A strong ETag vouches for the bytes: no overlap is fetched again.
        guard case .fetch(let resumed) = action else {
            Issue.record("expected the ranges fetched, got \(action)")
            return
        }
        #expect(resumed.begin == .resume)
        #expect(resumed.segments.map(\.done) == [10 * Self.mib, 10 * Self.mib])
        #expect(resumed.resumed == 20 * Self.mib)
    }

    @Test func afterARebootOnlyFlushedBytesAreTrusted() throws {
        var download = machine(boot: "boot-2")
        _ = download.begin(known: .init())
        _ = download.handle(
            .recordRead(record(halves(done: 10 * Self.mib, synced: 4 * Self.mib)), partialSize: 100 * Self.mib))
        let resumed = try #require(plan(download.handle(.probed(Self.strong))))
        #expect(resumed.segments.map(\.done) == [4 * Self.mib, 4 * Self.mib])
    }

    @Test func aRangeIsNeverTrustedBeyondWhatTheTempFileHolds() throws {
        let single = [Segment(index: 0, start: 0, end: 100 * Self.mib - 1, done: 30 * Self.mib, synced: 5 * Self.mib)]
        var download = machine()
        _ = download.begin(known: .init())
        _ = download.handle(.recordRead(record(single), partialSize: 20 * Self.mib))
        let resumed = try #require(plan(download.handle(.probed(Self.strong))))
        #expect(resumed.segments[0].done == 20 * Self.mib && resumed.segments[0].synced == 5 * Self.mib)
    }

    @Test func aJournaledDownloadOfAnotherVersionURLOrLengthStartsNew() throws {
        let saved = halves(done: 10 * Self.mib, synced: 10 * Self.mib)
        let changed = RemoteFileInfo(total: 100 * Self.mib, etag: "\"v2\"", lastModified: nil, acceptsRanges: true)
        let longer = RemoteFileInfo(total: 101 * Self.mib, etag: "\"v1\"", lastModified: nil, acceptsRanges: true)
        for (record, info) in [
            (record(saved), changed), (record(saved, url: "http://127.0.0.1:1/other"), Self.strong),
            (record(saved), longer),
        ] {
            var download = machine()
            _ = download.begin(known: .init())
            _ = download.handle(.recordRead(record, partialSize: 100 * Self.mib))
            #expect(plan(download.handle(.probed(info)))?.begin == .fresh(preallocated: info.total))
        }
    }

    @Test func aTempFileShorterThanItsFlushedBytesIsNotContinued() {
        var download = machine()
        _ = download.begin(known: .init())
        _ = download.handle(
            .recordRead(record(halves(done: 10 * Self.mib, synced: 10 * Self.mib)), partialSize: 55 * Self.mib))
        #expect(plan(download.handle(.probed(Self.strong)))?.begin == .fresh(preallocated: 100 * Self.mib))
    }

    @Test func continuingOnLastModifiedAloneChecksTheBytesBeforeEachResumePoint() throws {
        let dated = RemoteFileInfo(
            total: 100 * Self.mib, etag: nil, lastModified: "Mon, 01 Jun 2026 10:00:00 GMT", acceptsRanges: true)
        var download = machine()
        _ = download.begin(known: .init())
        _ = download.handle(
            .recordRead(record(halves(done: Self.mib, synced: Self.mib), info: dated), partialSize: 100 * Self.mib))
        guard case .checkOverlaps(let plan) = download.handle(.probed(dated)) else {
            Issue.record("a version vouched for by its time alone must be checked")
            return
        }
        #expect(plan.begin == .resume)
        #expect(download.handle(.overlapsMatched) == .fetch(plan))
    }

    @Test func rangesThatEndShortOfTheLengthFailAndWholeOnesAreVerified() throws {
        var short = machine()
        _ = short.begin(known: .init())
        _ = short.handle(.recordRead(nil, partialSize: 0))
        _ = short.handle(.probed(Self.strong))
        #expect(
            short.handle(.fetched(written: 99 * Self.mib, fileSize: 100 * Self.mib))
                == .fail(.lengthMismatch(expected: 100 * Self.mib, actual: 99 * Self.mib)))

        var whole = machine()
        _ = whole.begin(known: .init())
        _ = whole.handle(.recordRead(nil, partialSize: 0))
        let planned = try #require(plan(whole.handle(.probed(Self.strong))))
        #expect(whole.handle(.fetched(written: 100 * Self.mib, fileSize: 100 * Self.mib)) == .verify(planned))

        var grown = machine()
        _ = grown.begin(known: .init())
        _ = grown.handle(.recordRead(nil, partialSize: 0))
        _ = grown.handle(.probed(Self.strong))
        #expect(
            grown.handle(.fetched(written: 100 * Self.mib, fileSize: 101 * Self.mib))
                == .fail(.lengthMismatch(expected: 100 * Self.mib, actual: 100 * Self.mib)))
    }

    @Test func aChangedFileRestartsTwiceIgnoringTheJournalThenGivesUp() throws {
        var download = machine()
        let saved = record(halves(done: 10 * Self.mib, synced: 10 * Self.mib))
        let changed = Machine.Event.mustRestart(reason: "412", changed: true, afterLastByte: false)
        for round in 1...2 {
            _ = download.begin(known: .init())
            _ = download.handle(.recordRead(saved, partialSize: 100 * Self.mib))
            let planned = try #require(plan(download.handle(.probed(Self.strong))))
            // The first attempt continues the record; after a restart it starts new.
            #expect(planned.begin == (round == 1 ? .resume : .fresh(preallocated: 100 * Self.mib)))
            #expect(download.handle(changed) == .restart(reason: "412", refresh: true))
        }
        _ = download.begin(known: .init())
        #expect(download.handle(changed) == .fail(.unstable))
    }

    @Test func answersThatKeepNotFittingGiveUpWithTheirReasonAndRefreshNothing() {
        var download = machine()
        let odd = Machine.Event.mustRestart(reason: "Content-Range bytes 0-9/10", changed: false, afterLastByte: false)
        _ = download.begin(known: .init())
        #expect(download.handle(odd) == .restart(reason: "Content-Range bytes 0-9/10", refresh: false))
        _ = download.begin(known: .init())
        #expect(download.handle(odd) == .restart(reason: "Content-Range bytes 0-9/10", refresh: false))
        _ = download.begin(known: .init())
        #expect(download.handle(odd) == .fail(.unexpectedAnswer(reason: "Content-Range bytes 0-9/10")))
    }

    @Test func aFileEditedAsItStreamedIsFetchedOnceMoreOnly() {
        var download = machine()
        let edited = Machine.Event.mustRestart(reason: "edited", changed: true, afterLastByte: true)
        _ = download.begin(known: .init())
        #expect(download.handle(edited) == .restart(reason: "edited", refresh: true))
        _ = download.begin(known: .init())
        #expect(download.handle(edited) == .fail(.unstable))
    }

    @Test func anEventOutOfTurnEndsTheDownload() {
        var download = machine()
        _ = download.begin(known: .init())
        guard case .fail(.unexpectedAnswer) = download.handle(.overlapsMatched) else {
            Issue.record("an event out of turn must fail")
            return
        }
    }
}

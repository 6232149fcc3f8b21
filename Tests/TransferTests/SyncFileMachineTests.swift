import FileModel
import Testing

@testable import Officer
@testable import Transfer

/// One file of a sync as tables of events and the steps they must produce: compare, ask, send, wait for the
/// server, set the time, record. No server, no disk, no clock.
@Suite struct SyncFileMachineTests {
    typealias Machine = SyncFileMachine

    static func file(size: Int64 = 100, mtime: Double = 1000, exact: Bool = true, sourceName: String? = nil) -> SyncItem
    {
        var item = SyncItem(
            path: SyncPath(["a", "f.txt"]), kind: .file, size: size, mtime: mtime, sourceName: sourceName)
        item.isTimeExact = exact
        return item
    }

    func machine(
        _ source: SyncItem = file(), over destination: SyncItem? = nil, comparison: SyncComparison = .sizeAndTime,
        dryRun: Bool = false
    ) -> Machine {
        Machine(source: source, destination: destination, comparison: comparison, dryRun: dryRun)
    }

    static let sha = SyncChecksum(algorithm: .sha256, hex: "aa")

    @Test func aNewFileIsSentAndRecordedWithWhatItsBytesWereCheckedAgainst() {
        var new = machine()
        #expect(new.begin() == .transfer(reason: "new", announce: false))
        #expect(
            new.handle(.received(bytes: 100, checked: .sha256))
                == .finish(.transferred(reason: "new", bytes: 100, checked: .sha256)))
    }

    @Test func theListingsDecideWhenTheyCan() {
        var same = machine(over: Self.file())
        #expect(same.begin() == .finish(.unchanged))
        var longer = machine(Self.file(size: 200), over: Self.file())
        #expect(longer.begin() == .transfer(reason: "changed", announce: false))
        var newer = machine(Self.file(mtime: 5000), over: Self.file())
        #expect(newer.begin() == .transfer(reason: "changed", announce: false))
        var sizeOnly = machine(Self.file(mtime: 5000), over: Self.file(), comparison: .sizeOnly)
        #expect(sizeOnly.begin() == .finish(.unchanged))
    }

    @Test func withTimesNotExactTheSameSizeAsksTheTimesAndTheyDecide() {
        var asked = machine(Self.file(), over: Self.file(exact: false))
        #expect(asked.begin() == .askExactTimes)
        #expect(
            asked.handle(.exactTimes(source: Self.file(mtime: 9000), destination: Self.file()))
                == .transfer(reason: "changed", announce: true))
        var same = machine(Self.file(), over: Self.file(exact: false))
        _ = same.begin()
        #expect(same.handle(.exactTimes(source: Self.file(), destination: Self.file())) == .finish(.unchanged))
        // Another size decides without asking.
        var other = machine(Self.file(size: 1), over: Self.file(exact: false))
        #expect(other.begin() == .transfer(reason: "changed", announce: false))
    }

    @Test func aPreparedImageIsComparedByTimeWhateverItsSize() {
        var prepared = machine(Self.file(size: 50, sourceName: "IMG.HEIC"), over: Self.file(exact: false))
        #expect(prepared.begin() == .askExactTimes)
        #expect(
            prepared.handle(.exactTimes(source: Self.file(size: 50, sourceName: "IMG.HEIC"), destination: Self.file()))
                == .finish(.unchanged))
    }

    @Test func equalSizesUnderChecksumAskTheChecksums() {
        var differ = machine(Self.file(), over: Self.file(), comparison: .checksum)
        #expect(differ.begin() == .askChecksums)
        #expect(
            differ.handle(.checksums(source: Self.sha, destination: SyncChecksum(algorithm: .sha256, hex: "bb")))
                == .transfer(reason: "changed (checksum)", announce: true))
        var otherFunction = machine(Self.file(), over: Self.file(), comparison: .checksum)
        _ = otherFunction.begin()
        #expect(
            otherFunction.handle(.checksums(source: Self.sha, destination: SyncChecksum(algorithm: .md5, hex: "aa")))
                == .transfer(reason: "changed (checksum)", announce: true))
    }

    @Test func sameContentWithAnotherTimeOnlyGetsTheTime() {
        var retimed = machine(Self.file(mtime: 5000), over: Self.file(), comparison: .checksum)
        #expect(retimed.begin() == .askChecksums)
        #expect(retimed.handle(.checksums(source: Self.sha, destination: Self.sha)) == .setTime)
        #expect(retimed.handle(.timeSet) == .finish(.timeSet))
        var same = machine(Self.file(), over: Self.file(), comparison: .checksum)
        _ = same.begin()
        #expect(same.handle(.checksums(source: Self.sha, destination: Self.sha)) == .finish(.unchanged))
    }

    @Test func aServerWithoutChecksumsIsComparedBySizeAndTime() {
        var newer = machine(Self.file(mtime: 5000), over: Self.file(), comparison: .checksum)
        _ = newer.begin()
        #expect(newer.handle(.checksumsNotOffered) == .transfer(reason: "changed", announce: true))
        var same = machine(Self.file(), over: Self.file(), comparison: .checksum)
        _ = same.begin()
        #expect(same.handle(.checksumsNotOffered) == .finish(.unchanged))
    }

    @Test func aServerGoneIsWaitedForAndTheFileSentAgainUntilTheSyncStops() {
        var file = machine()
        _ = file.begin()
        #expect(file.handle(.failed(serverGone: true)) == .waitForServer(attempt: 0))
        #expect(file.handle(.serverBack(true)) == .transfer(reason: "new", announce: false))
        #expect(file.handle(.failed(serverGone: true)) == .waitForServer(attempt: 1))
        #expect(file.handle(.serverBack(false)) == .finish(.failed(.transfer)))
    }

    @Test func otherFailuresEndTheFileAtTheStepTheyHappened() {
        var send = machine()
        _ = send.begin()
        #expect(send.handle(.failed(serverGone: false)) == .finish(.failed(.transfer)))
        var compare = machine(Self.file(), over: Self.file(exact: false))
        _ = compare.begin()
        #expect(compare.handle(.failed(serverGone: true)) == .finish(.failed(.compare)))
        var checksum = machine(Self.file(), over: Self.file(), comparison: .checksum)
        _ = checksum.begin()
        #expect(checksum.handle(.failed(serverGone: false)) == .finish(.failed(.checksum)))
    }

    @Test func aDryRunOnlyChecksTheFileCouldBeSentAndWaitsForNothing() {
        var dry = machine(dryRun: true)
        #expect(dry.begin() == .checkSendable(reason: "new", announce: false))
        #expect(dry.handle(.sendable) == .finish(.transferred(reason: "new", bytes: 100, checked: nil)))
        var refused = machine(dryRun: true)
        _ = refused.begin()
        #expect(refused.handle(.failed(serverGone: true)) == .finish(.failed(.transfer)))
    }

    @Test func aFileHeldBackIsRecordedAsDeferred() {
        var held = machine()
        _ = held.begin()
        #expect(held.handle(.deferred(localPath: "a/f.txt")) == .finish(.deferred(localPath: "a/f.txt")))
    }
}

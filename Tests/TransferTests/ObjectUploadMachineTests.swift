import Testing

@testable import Transfer

/// An upload to an object store as tables of events and the steps they must produce: one PUT or parts, what a
/// journaled upload becomes, what a store that lost it means. No store, no journal.
@Suite struct ObjectUploadMachineTests {
    typealias Machine = ObjectUploadMachine

    static let threshold: Int64 = 32 << 20

    func machine(size: Int64 = 100 << 20) -> Machine { Machine(size: size, threshold: Self.threshold) }

    @Test func aFileBelowTheThresholdGoesInOnePut() {
        var small = machine(size: Self.threshold - 1)
        #expect(small.begin() == .putWhole)
    }

    @Test func aNewUploadStartsSendsEveryPartAndCompletes() {
        var upload = machine()
        #expect(upload.begin() == .readRecord)
        #expect(upload.handle(.recordRead(nil)) == ([], .start))
        #expect(upload.handle(.started) == ([], .send(held: [])))
        #expect(upload.handle(.completed) == ([], .finish(storedEarlier: false)))
    }

    @Test func aJournaledUploadOfTheSameFileSendsOnlyThePartsTheStoreLacks() {
        var upload = machine()
        _ = upload.begin()
        #expect(upload.handle(.recordRead(.init(uploadID: "u1", sameFile: true))) == ([], .listParts(uploadID: "u1")))
        #expect(upload.handle(.partsListed(held: [1, 3])) == ([], .send(held: [1, 3])))
        #expect(upload.handle(.completed) == ([], .finish(storedEarlier: false)))
    }

    @Test func aJournaledUploadOfAnotherVersionIsAbortedFirst() {
        var upload = machine()
        _ = upload.begin()
        #expect(
            upload.handle(.recordRead(.init(uploadID: "old", sameFile: false)))
                == ([.restarted("the local file changed since the interrupted upload")], .abort(uploadID: "old")))
        #expect(upload.handle(.aborted) == ([], .start))
    }

    @Test func anUploadTheStoreLostIsDoneWhenTheObjectHoldsTheFile() {
        var done = machine()
        _ = done.begin()
        _ = done.handle(.recordRead(.init(uploadID: "u1", sameFile: true)))
        #expect(done.handle(.uploadGone) == ([], .checkStoredEarlier))
        #expect(done.handle(.storedEarlier(true)) == ([], .finish(storedEarlier: true)))

        var again = machine()
        _ = again.begin()
        _ = again.handle(.recordRead(.init(uploadID: "u1", sameFile: true)))
        _ = again.handle(.uploadGone)
        #expect(
            again.handle(.storedEarlier(false)) == (
                [.restarted("the store no longer has the unfinished upload")], .start
            ))
    }

    @Test func anEventOutOfTurnStartsOverRatherThanCompleting() {
        var upload = machine()
        _ = upload.begin()
        let (notices, action) = upload.handle(.completed)
        #expect(action == .start && notices.count == 1)
    }
}

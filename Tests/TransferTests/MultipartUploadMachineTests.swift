import Testing

@testable import Transfer

/// A seed server's multipart upload as tables of events and the steps they must produce: the name looked up, a
/// name the form cannot carry, what an answer means. No server.
@Suite struct MultipartUploadMachineTests {
    typealias Machine = MultipartUploadMachine

    func machine(carries: Bool = true, confirm: Bool = true, mustBeFree: Bool = false) -> Machine {
        Machine(formCarriesName: carries, canConfirm: confirm, mustFindNameFree: mustBeFree)
    }

    @Test func aStoredAnswerIsConfirmedAndDone() {
        var upload = machine()
        #expect(upload.begin() == .post(privateName: false))
        #expect(upload.handle(.answered(status: 201, attempts: 1)) == .confirmAnswer)
        #expect(upload.handle(.confirmed) == .finish)
    }

    @Test func withoutOverwriteTheNameIsLookedUpFirst() {
        var upload = machine(mustBeFree: true)
        #expect(upload.begin() == .checkNameIsFree)
        #expect(upload.handle(.nameFree) == .post(privateName: false))
        // A server that cannot be asked is not asked.
        var blind = machine(confirm: false, mustBeFree: true)
        #expect(blind.begin() == .post(privateName: false))
    }

    @Test func aNameTheFormCannotCarryGoesPrivatelyAndIsRenamed() {
        var upload = machine(carries: false)
        #expect(upload.begin() == .post(privateName: true))
        #expect(upload.handle(.answered(status: 200, attempts: 1)) == .confirmAnswer)
        #expect(upload.handle(.confirmed) == .place)
        #expect(upload.handle(.placed) == .finish)
        // Without a way to rename it, nothing goes.
        var refused = machine(carries: false, confirm: false)
        #expect(refused.begin() == .fail(.nameNotCarried))
    }

    @Test func aConflictToAPostSentAgainIsTheFirstAttemptsFile() {
        var again = machine()
        _ = again.begin()
        #expect(again.handle(.answered(status: 409, attempts: 2)) == .confirmStored)
        #expect(again.handle(.confirmed) == .finish)
        var first = machine()
        _ = first.begin()
        #expect(first.handle(.answered(status: 409, attempts: 1)) == .fail(.lastAnswer))
    }

    @Test func otherFailuresAreTheLastAnswer() {
        var upload = machine()
        _ = upload.begin()
        #expect(upload.handle(.answered(status: 500, attempts: 3)) == .fail(.lastAnswer))
    }
}

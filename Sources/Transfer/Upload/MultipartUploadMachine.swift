/// The rules of one multipart (seed) upload of a file, as a value: an event in (the name found free, the POST
/// answered, the stored file confirmed, the private name replaced), the next step out. No I/O: the driver
/// (`MultipartUploader.upload`) asks the server, sends the form and renames.
///
/// Rules: without `overwrite` the name is looked up first (a server that takes no such field would replace what is
/// there); a name the form cannot carry exactly goes under a private name and is renamed once stored, and without
/// a way to rename it the upload fails before a byte goes; a success is done when the answer names the file
/// stored (confirmed by asking when it does not, or when the POST was sent more than once); a 409 to a POST sent
/// again is the first attempt's file, confirmed by asking; any other failure is the last answer.
struct MultipartUploadMachine: Sendable {
    /// What the driver does next.
    enum Action: Equatable, Sendable {
        /// Ask whether the name is free: ``Event/nameFree``.
        case checkNameIsFree
        /// POST the form, under a private name when `privateName`: ``Event/answered(status:attempts:)``.
        case post(privateName: Bool)
        /// Check the answer names the stored file (asking the server where it must): ``Event/confirmed``.
        case confirmAnswer
        /// Ask the server whether it holds the file an earlier attempt sent: ``Event/confirmed``.
        case confirmStored
        /// Rename the file stored under its private name: ``Event/placed``.
        case place
        /// Done: the server holds the file under its name.
        case finish
        /// The upload cannot be done.
        case fail(Failure)
    }

    /// Why an upload failed.
    enum Failure: Equatable, Sendable {
        /// The form cannot carry the name exactly and the server cannot rename it after.
        case nameNotCarried
        /// The last answer, as it was.
        case lastAnswer
    }

    /// What happened.
    enum Event: Equatable, Sendable {
        case nameFree
        /// The POST was answered with `status` after `attempts` sends.
        case answered(status: Int, attempts: Int)
        case confirmed
        case placed
    }

    /// The form carries the file's name exactly.
    let formCarriesName: Bool
    /// The server can be asked what it holds and rename a file (``UploadConfirming``).
    let canConfirm: Bool
    /// A file there must not be replaced, and the server is not told so by the form.
    let mustFindNameFree: Bool

    private var privateName = false
    private var phase = Phase.idle

    private enum Phase: Equatable { case idle, checking, posting, confirming, placing, ended }

    /// A machine for one file.
    init(formCarriesName: Bool, canConfirm: Bool, mustFindNameFree: Bool) {
        self.formCarriesName = formCarriesName
        self.canConfirm = canConfirm
        self.mustFindNameFree = mustFindNameFree
    }

    /// The first step.
    mutating func begin() -> Action {
        guard mustFindNameFree, canConfirm else { return post() }
        phase = .checking
        return .checkNameIsFree
    }

    /// The step after `event`.
    mutating func handle(_ event: Event) -> Action {
        switch (phase, event) {
        case (.checking, .nameFree):
            return post()
        case (.posting, .answered(let status, let attempts)):
            phase = .confirming
            if (200..<300).contains(status) { return .confirmAnswer }
            if status == 409, attempts > 1, canConfirm {
                // Tried again after a failure, and the name is taken now: the first attempt may have stored it.
                return .confirmStored
            }
            return ended(.fail(.lastAnswer))
        case (.confirming, .confirmed):
            guard privateName else { return ended(.finish) }
            phase = .placing
            return .place
        case (.placing, .placed):
            return ended(.finish)
        default:
            return ended(.fail(.lastAnswer))
        }
    }

    private mutating func post() -> Action {
        guard formCarriesName || canConfirm else { return ended(.fail(.nameNotCarried)) }
        privateName = !formCarriesName
        phase = .posting
        return .post(privateName: privateName)
    }

    private mutating func ended(_ action: Action) -> Action {
        phase = .ended
        return action
    }
}

import FileModel
import Foundation

/// The endpoints of the contract that a server may lack: everything beyond the seed's file API (ls, read, raw,
/// search, mkdir, write, multipart upload, rename, copy, move, rm, download, transcode, the AI actions).
package enum Proposal: String, Sendable, CaseIterable, Codable {
    /// `GET stat`: one entry (without it: the listing of its folder).
    case stat
    /// `GET tree`: the recursive listing, paged (without it: `ls` folder by folder).
    case tree
    /// `GET sha256`: the server's checksum of a file (without it: none; sync compares size and time).
    case sha256
    /// `POST mtime`: set a file's time (without it: the server keeps its own time).
    case mtime
    /// tus 1.0 resumable uploads (without it: one multipart POST, not resumable).
    case tus
    /// `GET zip`: a zip of many, resumable like a file (without it: the seed's `POST download`, one stream).
    case zip
    /// `POST transcode`: a transcode stored beside the video, as a job (without it: the seed's `GET transcode`,
    /// streamed to the client as it is made).
    case transcode
    /// `GET ls` with `limit` and `after`: one page of a folder in name order (without it: the whole folder,
    /// which the front door keeps for a cursor's life and cuts pages from).
    case pages
}

/// What one Officer server offers of the ``Proposal``s, learnt once and shared by every client of a front door:
/// from the plugins answer where it names its features, else from the first use of each (a 404 from a proposed
/// endpoint means "not offered" once the listing shows the path exists, never "no such file"). An offer not
/// seen answering in this run (remembered from an earlier one, or named by the features) is doubted at its first
/// 404 (``doubt(_:)``): the server may have lost the endpoint meanwhile, or named one it does not serve.
package final class ServerOffers: Sendable {
    private struct Learnt {
        var known: [Proposal: Bool] = [:]
        /// What this front door learnt itself (a use, a probe, the features), as against what `memory` remembered.
        var confirmed: Set<Proposal> = []
        /// Offers a 404 put in doubt: only the endpoint itself settles them now (features and memory no longer count).
        var doubted: Set<Proposal> = []
        var featuresLoaded = false
        var loaded = false
    }
    private let learnt = LockedValue(Learnt())
    private let memory: Memory?

    /// Where what was learnt is kept between runs (the journal), so each proposal is probed once a day per
    /// server, not once per command.
    package struct Memory: Sendable {
        /// What was remembered (proposal name → offered).
        package var load: @Sendable () -> [String: Bool]
        /// Keeps one answer.
        package var save: @Sendable (_ proposal: String, _ offered: Bool) -> Void

        /// A memory made of these two.
        package init(load: @escaping @Sendable () -> [String: Bool], save: @escaping @Sendable (String, Bool) -> Void) {
            self.load = load
            self.save = save
        }
    }

    /// How long what was learnt is trusted before it is asked again.
    package static let maxAge: Double = 86_400

    /// Nothing known yet; `memory` keeps what is learnt across runs.
    package init(memory: Memory?) { self.memory = memory }

    /// Nothing known yet, and nothing kept after this front door.
    package convenience init() { self.init(memory: nil) }

    /// Whether the server offers `proposal`: nil until learnt.known.
    package func offers(_ proposal: Proposal) -> Bool? {
        if let memory, learnt.withLock({ !$0.loaded }) {
            let remembered = memory.load()
            learnt.withLock { learnt in
                if !learnt.loaded {
                    learnt.loaded = true
                    for (name, offered) in remembered {
                        if let proposal = Proposal(rawValue: name), learnt.known[proposal] == nil,
                            !learnt.doubted.contains(proposal)
                        {
                            learnt.known[proposal] = offered
                        }
                    }
                }
            }
        }
        return learnt.withLock { $0.known[proposal] }
    }

    /// Records what was learnt of `proposal`; `proven` when the server's endpoint itself answered (a use or a
    /// probe), not when the features named it.
    func learn(_ proposal: Proposal, offered: Bool, proven: Bool = true) {
        let changed = learnt.withLock { learnt in
            if !proven, learnt.doubted.contains(proposal) { return false }
            defer {
                learnt.known[proposal] = offered
                if proven { learnt.confirmed.insert(proposal) }
            }
            return learnt.known[proposal] != offered
        }
        if changed { memory?.save(proposal.rawValue, offered) }
    }

    /// Called on a 404 from `proposal`'s endpoint: true when that endpoint has not answered in this run, so the 404
    /// may be the endpoint's, not the file's — the offer was remembered from an earlier run, named by the features
    /// of a server that answers 404 all the same, or already doubted by another request. Its offer is then forgotten
    /// (the next ``OfficerClient/isOffered(_:root:)`` asks the server once) and the caller asks again: a file the
    /// listing shows is never "no such file" because an endpoint went away. False once the endpoint answered in this
    /// run (the 404 is the file's).
    func doubt(_ proposal: Proposal) -> Bool {
        learnt.withLock { learnt in
            if learnt.known[proposal] == true, learnt.confirmed.contains(proposal) { return false }
            if learnt.known[proposal] == true { learnt.known[proposal] = nil }
            if !learnt.confirmed.contains(proposal) { learnt.doubted.insert(proposal) }
            return true
        }
    }

    /// Forgets what was remembered or named of `proposal` but not seen in this run, so the next question asks the
    /// server (`cache verify` asks whether checksums are offered now, not whether they were yesterday).
    func askAgain(_ proposal: Proposal) {
        _ = offers(proposal)  // what is remembered is loaded first, so that it is not loaded again over this
        learnt.withLock { learnt in
            if !learnt.confirmed.contains(proposal) { learnt.known[proposal] = nil }
        }
    }

    /// Whether `proposal`'s endpoint answered in this run (a 404 from it is then the file's).
    func isConfirmed(_ proposal: Proposal) -> Bool { learnt.withLock { $0.confirmed.contains(proposal) } }

    /// Whether the features of the plugins answer were taken in.
    var hasFeatures: Bool { learnt.withLock { $0.featuresLoaded } }

    /// Takes in a plugins answer's feature list: each listed proposal is offered, each unlisted one but `stat`
    /// (which servers listed only later: unlisted, a probe tells) is not. An answer without a list says nothing.
    func learn(features: [String]?) {
        learnt.withLock { $0.featuresLoaded = true }
        guard let features else { return }
        for proposal in Proposal.allCases where proposal != .stat {
            learn(proposal, offered: features.contains(proposal.rawValue), proven: false)
        }
        // Servers named their features before `stat` was one: its absence from the list says nothing (a probe
        // tells), its presence spares that probe.
        if features.contains(Proposal.stat.rawValue) { learn(.stat, offered: true, proven: false) }
    }
}

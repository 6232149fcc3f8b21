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
}

/// What one Officer server offers of the ``Proposal``s, learnt once and shared by every client of a front door:
/// from the plugins answer where it names its features, else from the first use of each (a 404 from a proposed
/// endpoint means "not offered" once the listing shows the path exists, never "no such file"). An offer
/// remembered from an earlier run is doubted once, at its first 404 (``forgetRemembered(_:)``): the server may
/// have lost the endpoint meanwhile.
package final class ServerOffers: @unchecked Sendable {
    private let lock = NSLock()
    private var known: [Proposal: Bool] = [:]
    /// What this front door learnt itself (a use, a probe, the features), as against what `memory` remembered.
    private var confirmed: Set<Proposal> = []
    private var featuresLoaded = false
    private var loaded = false
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

    /// Whether the server offers `proposal`: nil until known.
    package func offers(_ proposal: Proposal) -> Bool? {
        if let memory, lock.withLock({ !loaded }) {
            let remembered = memory.load()
            lock.withLock {
                if !loaded {
                    loaded = true
                    for (name, offered) in remembered {
                        if let proposal = Proposal(rawValue: name), known[proposal] == nil { known[proposal] = offered }
                    }
                }
            }
        }
        return lock.withLock { known[proposal] }
    }

    /// Records what was learnt of `proposal`.
    func learn(_ proposal: Proposal, offered: Bool) {
        let changed = lock.withLock {
            defer {
                known[proposal] = offered
                confirmed.insert(proposal)
            }
            return known[proposal] != offered
        }
        if changed { memory?.save(proposal.rawValue, offered) }
    }

    /// Called on a 404 from `proposal`'s endpoint: an offer only remembered from an earlier run (nothing in this one
    /// confirmed it) is forgotten, so the next question asks the server again, and true is returned; false when the
    /// offer was learnt in this run (the 404 is the file's), or none is known. Once per proposal: what the server
    /// answers then is confirmed.
    func forgetRemembered(_ proposal: Proposal) -> Bool {
        lock.withLock {
            guard known[proposal] == true, !confirmed.contains(proposal) else { return false }
            known[proposal] = nil
            return true
        }
    }

    /// Whether the features of the plugins answer were taken in.
    var hasFeatures: Bool { lock.withLock { featuresLoaded } }

    /// Takes in a plugins answer's feature list: each listed proposal is offered, each unlisted one but `stat`
    /// (which servers listed only later: unlisted, a probe tells) is not. An answer without a list says nothing.
    func learn(features: [String]?) {
        lock.withLock { featuresLoaded = true }
        guard let features else { return }
        for proposal in Proposal.allCases where proposal != .stat {
            learn(proposal, offered: features.contains(proposal.rawValue))
        }
        // Servers named their features before `stat` was one: its absence from the list says nothing (a probe
        // tells), its presence spares that probe.
        if features.contains(Proposal.stat.rawValue) { learn(.stat, offered: true) }
    }
}

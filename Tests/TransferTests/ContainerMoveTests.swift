import FileModel
import Foundation
import Journal
import Officer
import Preview
import TestSupport
import Testing
import VipsImaging

/// An iOS app's container moves on every update: a download and an upload paused in one place, the whole
/// container (documents, caches, the journal) moved, and both resumed from where they stopped, with nothing
/// fetched or sent again and no record left behind; then moved back, a queued upload kept across the move.
@Suite struct ContainerMoveTests {
    let server: ReferenceServer
    let work = TemporaryDirectory(prefix: "container-move")

    init() async throws {
        server = try await ReferenceServer.start()
    }

    /// A front door set up as an app sets it up, for its container at `container` now.
    func files(in container: String, tokens: MemoryTokenStore, offline: Bool = false) throws -> OfficerFiles {
        var configuration = OfficerFiles.Configuration(server: server.url, tokens: tokens)
        // Pausing rides on a bandwidth limit, which only the libcurl engine keeps here.
        configuration.http.engine = TestEngine.curl.engine
        configuration.http.offline = offline
        configuration.journalPath = container + "/Library/Application Support/officer/journal.sqlite"
        configuration.cacheDirectory = container + "/Library/Caches/officer/content"
        configuration.baseFolders = ["documents": container + "/Documents", "caches": container + "/Library/Caches"]
        return try OfficerFiles(configuration: configuration)
    }

    static func bytes(_ count: Int, seed: Int) -> Data {
        var bytes = Data(count: count)
        for index in stride(from: 0, to: count, by: 4093) { bytes[index] = UInt8(truncatingIfNeeded: index &+ seed) }
        return bytes
    }

    /// Runs `operation` until it reports more than `bytes` done, then cancels it (its consumer stops).
    func pause<T: Sendable, F: Error>(_ operation: ProgressOperation<TransferEvent, T, F>, after bytes: Int64) async {
        // Read off the shared pool: its threads held by other tests would let the transfer end before the pause.
        await DedicatedExecutor().run {
            var done: [Int: Int64] = [:]
            for await event in operation {
                if case .progress(let part, let partDone) = event {
                    done[part] = partDone
                    if done.values.reduce(0, +) > bytes { break }
                }
            }
        }
        // Said, for a failure below: a pause that came too late.
        if (try? await operation.value) != nil { print("ContainerMoveTests: the transfer ended before it was paused") }
    }

    /// Uploads `local` to `remote` in 1 MiB chunks at 4 MiB/s, paused once more than `bytes` went.
    func pauseUpload(_ files: OfficerFiles, _ local: String, to remote: String, after bytes: Int64) async throws {
        var options = UploadOptions()
        options.bandwidthLimit = 4 << 20
        options.chunkSize = 1 << 20
        await pause(
            files.upload(URL(fileURLWithPath: local), to: try files.location(remote), options: options), after: bytes)
    }

    /// The bytes in place when `operation` starts, and its result.
    func run<T: Sendable, F: Error>(_ operation: ProgressOperation<TransferEvent, T, F>) async throws
        -> (resumed: Int64, value: T)
    {
        var resumed: Int64 = -1
        for await event in operation {
            if case .started(_, _, let bytes, _, _) = event, resumed < 0 { resumed = bytes }
        }
        return (resumed, try await operation.value)
    }

    /// A field of the journal's transfers of `kind` as stored, for what a moved container must not leave behind.
    func rows(_ journal: String, _ kind: TransferJournal.StateKind, _ field: String) throws -> [String] {
        try TransferJournal(watching: journal).withDatabase { database throws(SQLiteError) in
            try database.query(
                "SELECT json_extract(state, '$.\(field)') FROM transfers WHERE kind = ?", [.text(kind.rawValue)]
            ).compactMap { $0[0].string }
        }
    }

    static let journalPath = "/Library/Application Support/officer/journal.sqlite"

    /// A 12 MiB download of `officer:/big.bin` and a 12 MiB upload to `officer:/up.bin`, both paused part way by
    /// an app in `container`; the server's and the local bytes.
    func pauseBoth(in container: String, tokens: MemoryTokenStore) async throws -> (remote: Data, local: Data) {
        try FileManager.default.createDirectory(atPath: container + "/Documents", withIntermediateDirectories: true)
        let remote = Self.bytes(12 << 20, seed: 1)
        try server.root.write("big.bin", remote)
        let local = Self.bytes(12 << 20, seed: 7)
        try local.write(to: URL(fileURLWithPath: container + "/Documents/up.bin"))
        let files = try files(in: container, tokens: tokens)
        try await files.signIn(email: server.email, password: server.password)
        var downloadOptions = DownloadOptions()
        // Forty-eight seconds for the whole file: paused part way even when other tests hold the machine (at
        // 4 and at 1 MiB/s, loaded runs saw it end before the pause; the download needs no request after its
        // body now). The resume goes at full speed.
        downloadOptions.bandwidthLimit = 256 << 10
        downloadOptions.segments = 1
        await pause(
            files.download(
                try files.location("officer:/big.bin"), to: URL(fileURLWithPath: container + "/Documents/big.bin"),
                options: downloadOptions),
            after: 2 << 20)
        try await pauseUpload(files, container + "/Documents/up.bin", to: "officer:/up.bin", after: 3 << 20)
        let paused = try files.unfinishedTransferList()
        #expect(paused.count == 2, "\(paused)")
        #expect(paused.allSatisfy { $0.doneBytes > 0 }, "\(paused)")
        return (remote, local)
    }

    /// Both transfers of ``pauseBoth(in:tokens:)`` found by an app in `container` and resumed from the bytes they
    /// had, and nothing left behind: no record under either name, no list entry.
    func resumeBoth(in container: String, tokens: MemoryTokenStore, remote: Data, local: Data) async throws {
        let files = try files(in: container, tokens: tokens)
        let found = try files.unfinishedTransferList()
        let download = try #require(found.first { !$0.isUpload }, "\(found)")
        let upload = try #require(found.first { $0.isUpload }, "\(found)")
        #expect(download.file.path == container + "/Documents/big.bin")
        #expect(upload.file.path == container + "/Documents/up.bin")
        #expect(download.doneBytes > 0 && upload.doneBytes > 0)

        let downloaded = try await run(files.resume(download))
        #expect(downloaded.resumed == download.doneBytes, "the download started again instead of resuming")
        #expect(FileManager.default.contents(atPath: container + "/Documents/big.bin") == remote)
        let uploaded = try await run(files.resume(upload))
        #expect(uploaded.resumed >= upload.doneBytes && uploaded.resumed > 0, "the upload started again from 0")
        #expect(FileManager.default.contents(atPath: server.root.file("up.bin")) == local)

        #expect(try files.unfinishedTransferList() == [])
        for (kind, field) in [(TransferJournal.StateKind.download, "destination"), (.tusUpload, "key")] {
            #expect(try rows(container + Self.journalPath, kind, field) == [], "\(kind)")
        }
    }

    @Test func halfDoneTransfersResumeAfterTheContainerMoves() async throws {
        let tokens = MemoryTokenStore()
        let first = work.file("container-A")
        let second = work.file("container-B")
        let (remote, local) = try await pauseBoth(in: first, tokens: tokens)
        // Kept relative to the documents folder, not by the container's path.
        #expect(try rows(first + Self.journalPath, .download, "destination") == ["documents:big.bin"])
        #expect(try rows(first + Self.journalPath, .download, "tempPath").allSatisfy { $0.hasPrefix("documents:") })
        #expect(try rows(first + Self.journalPath, .tusUpload, "localPath") == ["documents:up.bin"])

        try FileManager.default.moveItem(atPath: first, toPath: second)
        try await resumeBoth(in: second, tokens: tokens, remote: remote, local: local)
    }

    /// An app updated from 0.4: a download and an upload paused under 0.4's journal (its tables, format 3) are
    /// found and resumed by this build from the bytes they had, the journal migrated to one versioned state per
    /// transfer. (The tables are this build's pause written back as 0.4 wrote them, `JournalFormatThree`.)
    @Test func transfersPausedUnderTheLastReleaseResumeAfterTheUpdate() async throws {
        let tokens = MemoryTokenStore()
        let container = work.file("updated")
        let (remote, local) = try await pauseBoth(in: container, tokens: tokens)
        let journal = container + Self.journalPath
        try JournalFormatThree.downgrade(journal)
        #expect(try JournalFormatThree.userVersion(journal) == 3)
        try await resumeBoth(in: container, tokens: tokens, remote: remote, local: local)
        #expect(try JournalFormatThree.userVersion(journal) == TransferJournal.formatVersion)
    }

    @Test func aQueuedUploadAndAPausedOneFollowTheContainerBack() async throws {
        let tokens = MemoryTokenStore()
        let first = work.file("here")
        let second = work.file("there")
        try FileManager.default.createDirectory(atPath: first + "/Documents", withIntermediateDirectories: true)
        let note = Data("kept while offline\n".utf8)
        try note.write(to: URL(fileURLWithPath: first + "/Documents/note.txt"))
        let local = Self.bytes(10 << 20, seed: 3)
        try local.write(to: URL(fileURLWithPath: first + "/Documents/up.bin"))
        do {
            let online = try files(in: first, tokens: tokens)
            try await online.signIn(email: server.email, password: server.password)
            _ = try await online.list(try online.location("officer:/"))
            try await pauseUpload(online, first + "/Documents/up.bin", to: "officer:/back.bin", after: 2 << 20)
            let offline = try files(in: first, tokens: tokens, offline: true)
            let queued = try await offline.makeOrQueue(
                .upload(
                    URL(fileURLWithPath: first + "/Documents/note.txt"), to: try offline.location("officer:/note.txt"),
                    overwrite: false))
            #expect(queued != nil)
        }
        // There and back: the second run sees the first's records under its own folders, and so does the third.
        try FileManager.default.moveItem(atPath: first, toPath: second)
        do {
            let there = try files(in: second, tokens: tokens, offline: true)
            #expect(try there.unfinishedTransferList().map(\.file.path) == [second + "/Documents/up.bin"])
        }
        try FileManager.default.moveItem(atPath: second, toPath: first)

        let files = try files(in: first, tokens: tokens)
        let paused = try #require(try files.unfinishedTransferList().first)
        #expect(paused.file.path == first + "/Documents/up.bin")
        let resumed = try await run(files.resume(paused))
        #expect(resumed.resumed > 0, "the upload started again from 0")
        #expect(FileManager.default.contents(atPath: server.root.file("back.bin")) == local)

        let send = files.sendPendingChanges()
        for await _ in send {}
        #expect(try await send.value == [])
        #expect(FileManager.default.contents(atPath: server.root.file("note.txt")) == note)
        #expect(try files.unfinishedTransferList() == [])
    }

    @Test func aPreparedCopyIsFoundAgainAfterTheMove() throws {
        let first = work.file("prep-A")
        let second = work.file("prep-B")
        try FileManager.default.createDirectory(atPath: first + "/Documents", withIntermediateDirectories: true)
        try VipsImage.black(width: 300, height: 200).writePNG(to: first + "/Documents/p.png")
        var options = ImagePreparationOptions()
        options.maxEdge = 64
        options.format = .jpeg
        let before = try files(in: first, tokens: MemoryTokenStore()).imagePreparation(options)
            .prepare(first + "/Documents/p.png").get()
        let copy = try #require(before.temporary)
        let made = try #require(try FileManager.default.attributesOfItem(atPath: copy)[.systemFileNumber] as? Int)

        try FileManager.default.moveItem(atPath: first, toPath: second)
        let after = try files(in: second, tokens: MemoryTokenStore()).imagePreparation(options)
            .prepare(second + "/Documents/p.png").get()
        let moved = try #require(after.temporary)
        #expect(moved == second + String(copy.dropFirst(first.count)), "the copy is named for its original's kept path")
        #expect(
            try FileManager.default.attributesOfItem(atPath: moved)[.systemFileNumber] as? Int == made,
            "the copy made before the move is used, not made again")
    }
}

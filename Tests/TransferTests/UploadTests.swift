import FileModel
import Foundation
import Journal
import TestSupport
import Testing

@testable import HTTP
@testable import Officer
@testable import Transfer

/// tus uploads against the reference server, through the fault proxy, and against aiohttp-tus: every
/// test compares the server-side SHA-256 with the local one.
@Suite struct UploadTests {
    let local = TemporaryDirectory(prefix: "uploads")
    let server: ReferenceServer
    let client: OfficerClient

    init() async throws {
        server = try await ReferenceServer.start()
        var client = OfficerClient(server: server.url, http: .curl)
        client.token = try await client.signIn(email: server.email, password: server.password).token
        self.client = client
    }

    func file(_ name: String, _ count: Int, seed: UInt64 = 1) throws -> String {
        try local.write(name, TestBytes.pattern(count, seed: seed))
    }

    /// An uploader over `engine` (a test engine around a real one), with no journal.
    func uploader(over engine: any HTTPEngine) -> TusUploader {
        var configuration = HTTPClientConfiguration()
        configuration.engine = engine
        return TusUploader(http: HTTPClient(configuration: configuration), journal: nil)
    }

    /// The test's client, its requests sent through `engine`.
    func client(over engine: any HTTPEngine) -> OfficerClient {
        var configuration = HTTPClientConfiguration()
        configuration.engine = engine
        var over = client
        over.http = HTTPClient(configuration: configuration)
        return over
    }

    func uploader(stall: Double = 30) throws -> TusUploader {
        var configuration = HTTPClientConfiguration()
        configuration.retry.baseDelay = 0.05
        configuration.retry.maxDelay = 0.3
        configuration.stallTimeout = stall
        return TusUploader(
            http: TestEngine.curl.client(configuration),
            journal: try TransferJournal(path: local.file("journal.sqlite")))
    }

    func target(_ client: OfficerClient, _ name: String, overwrite: Bool = false, mtime: Double? = nil) throws
        -> UploadTarget
    {
        try client.uploadTarget(name: name, into: try RemotePath(path: "/in"), mtime: mtime, overwrite: overwrite)
    }

    func expectSameOnServer(_ path: String, _ remote: String) async throws {
        let sum = try await client.sha256(try RemotePath(path: remote))
        #expect(sum.sha256 == (try ProcessRunner.sha256(of: path)), "\(remote)")
    }

    /// A client that reaches the server through the fault proxy; the proxy lives as long as the client is used.
    func clientThroughProxy(port: Int? = nil, token: String? = nil, _ faults: [String]) async throws -> (
        OfficerClient, BackgroundService
    ) {
        let proxy = try await startFaultProxy(target: "127.0.0.1:\(port ?? server.service.port)", faults)
        var viaProxy = OfficerClient(server: proxy.url, http: .curl)
        viaProxy.token = token ?? client.token
        return (viaProxy, proxy)
    }

    /// What the running upload's journal says the server confirmed, read without the checks of a full opening.
    func journaledOffset() throws -> Int64 {
        guard FileManager.default.fileExists(atPath: local.file("journal.sqlite")) else { return 0 }
        return try TransferJournal(watching: local.file("journal.sqlite")).uploads().first?.parts.reduce(0) {
            $0 + $1.offset
        } ?? 0
    }

    /// Runs an upload and cancels it from its own callback once the journal holds confirmed bytes.
    func uploadInterrupted(_ path: String, to target: UploadTarget, options: UploadOptions) async throws {
        let interrupter = UploadInterrupter()
        let task = Task {
            try await uploader().upload(file: path, to: target, options: options) { _ in
                interrupter.check { ((try? journaledOffset()) ?? 0) > 0 }
            }
        }
        interrupter.attach(task)
        _ = await task.result
        #expect(interrupter.fired, "cancelled midway")
    }

    func journalIsEmpty() throws -> Bool { try TransferJournal(path: local.file("journal.sqlite")).uploads().isEmpty }

    @Test func uploadsInChunksWithChecksumsAndKeepsTheMtime() async throws {
        try await client.makeDirectory(try RemotePath(path: "/in"))
        let path = try file("a.bin", 3_000_000)
        var options = UploadOptions()
        options.chunkSize = 1 << 20
        let result = try await uploader().upload(
            file: path, to: try target(client, "a.bin", mtime: 1_700_000_000.5), options: options)
        #expect(
            result.method == .tus && result.bytes == 3_000_000 && result.sentBytes == 3_000_000
                && result.resumedBytes == 0)
        try await expectSameOnServer(path, "/in/a.bin")
        #expect(try await client.stat(try RemotePath(path: "/in/a.bin")).mtime == 1_700_000_000.5)
        #expect(try journalIsEmpty())
    }

    @Test func smallFilesGoUpWithTheCreation() async throws {
        try await client.makeDirectory(try RemotePath(path: "/in"))
        let path = try file("s.txt", 1000)
        let result = try await uploader().upload(file: path, to: try target(client, "s.txt"))
        #expect(result.sentBytes == 1000 && result.resumedBytes == 0)
        try await expectSameOnServer(path, "/in/s.txt")
        let empty = try local.write("empty", Data())
        _ = try await uploader().upload(file: empty, to: try target(client, "empty"))
        #expect(try await client.stat(try RemotePath(path: "/in/empty")).size == 0)
    }

    /// A large file's first chunk rides with its creation: the creation's round trip is the first chunk's. The
    /// whole file's last bytes still go from memory, read before the file was checked again.
    @Test func aLargeFilesFirstChunkGoesWithItsCreation() async throws {
        try await client.makeDirectory(try RemotePath(path: "/in"))
        let path = try file("large.bin", 6_000_000, seed: 3)
        let engine = RequestLogEngine(TestEngine.curl.engine)
        let uploader = uploader(over: engine)
        var options = UploadOptions()
        // Fixed sizes, so that no rate (a loaded machine's) decides them.
        options.chunkSize = 1 << 20
        let result = try await uploader.upload(file: path, to: try target(client, "large.bin"), options: options)
        #expect(result.sentBytes == 6_000_000 && result.resumedBytes == 0)
        try await expectSameOnServer(path, "/in/large.bin")
        let bodies = engine.entries.current.filter { $0.method == "POST" || $0.method == "PATCH" }
        #expect(bodies.map(\.method) == ["POST"] + Array(repeating: "PATCH", count: bodies.count - 1))
        #expect(bodies.map(\.status) == [201] + Array(repeating: 204, count: bodies.count - 1), "\(bodies)")
        // The creation's 1 MiB, chunks up to the last 2 MiB, then those in chunks of the fixed size.
        let mib: Int64 = 1 << 20
        #expect(bodies.map(\.bodyLength) == [mib, mib, mib, 757_120, mib, mib], "\(bodies)")
    }

    /// On FoundationNetworking a body sent from a file is unsafe to cancel (a read that completes after the
    /// transfer ended ends the process): the URLSession engine keeps every tus chunk within what it sends from
    /// memory, however large the chunk asked for, a file's or a stream's; elsewhere the chunk asked for goes whole.
    @Test func theURLSessionEnginesChunksStayWithinWhatItSendsSafely() async throws {
        try await client.makeDirectory(try RemotePath(path: "/in"))
        let size = 40 << 20
        let path = try file("sessions.bin", size, seed: 5)
        let engine = RequestLogEngine(TestEngine.urlSession.engine)
        let uploader = uploader(over: engine)
        var options = UploadOptions()
        options.chunkSize = 64 << 20
        _ = try await uploader.upload(file: path, to: try target(client, "sessions.bin"), options: options)
        try await expectSameOnServer(path, "/in/sessions.bin")
        // A stream (`put -`) goes in chunks of its own size: within the same bound.
        let content = try Data(contentsOf: URL(fileURLWithPath: path))
        let stream = AsyncThrowingStream<Data, any Error> { continuation in
            var offset = 0
            while offset < content.count {
                continuation.yield(content[offset..<min(content.count, offset + (1 << 20))])
                offset += 1 << 20
            }
            continuation.finish()
        }
        _ = try await uploader.upload(stream: stream, label: "-", to: try target(client, "streamed.bin"))
        try await expectSameOnServer(path, "/in/streamed.bin")
        let largest = engine.entries.current.filter { $0.method == "PATCH" }.compactMap(\.bodyLength).max() ?? 0
        #if canImport(FoundationNetworking)
            #expect(largest <= URLSessionEngine.memoryBodyLimit, "\(engine.entries.current)")
        #else
            #expect(largest > URLSessionEngine.memoryBodyLimit, "\(engine.entries.current)")
        #endif
    }

    /// The file's last bytes edited as the request carrying them leaves (after they were read and the file
    /// checked): the server holds the version read, whole — never its first bytes with the edited last ones.
    @Test func anEditAsTheLastBytesLeaveLeavesTheVersionReadWhole() async throws {
        try await client.makeDirectory(try RemotePath(path: "/in"))
        let size = 6_000_000
        let path = try file("edited.bin", size, seed: 4)
        let original = try ProcessRunner.sha256(of: path)
        let edits = LockedValue(0)
        let engine = RequestLogEngine(TestEngine.curl.engine) { request in
            guard request.method == "PATCH", case .data = request.body,
                edits.withLock({
                    $0 += 1; return $0
                }) == 1,
                let handle = FileHandle(forUpdatingAtPath: path)
            else { return }
            try? handle.seek(toOffset: UInt64(size - 1000))
            handle.write(Data(repeating: 0x5A, count: 1000))
            try? handle.close()
        }
        let uploader = uploader(over: engine)
        _ = try await uploader.upload(file: path, to: try target(client, "edited.bin"))
        #expect(edits.current == 1, "the last bytes went from memory")
        let stored = try await client.sha256(try RemotePath(path: "/in/edited.bin"))
        let edited = try ProcessRunner.sha256(of: path)
        #expect(stored.sha256 == original && stored.sha256 != edited)
    }

    @Test func parallelPartsAreJoined() async throws {
        try await client.makeDirectory(try RemotePath(path: "/in"))
        let path = try file("p.bin", 5_000_000, seed: 3)
        var options = UploadOptions()
        options.parts = 3
        options.chunkSize = 1 << 20
        let events = UploadEventLog()
        _ = try await uploader().upload(
            file: path, to: try target(client, "p.bin"), options: options, onEvent: events.add)
        #expect(events.parts == 3)
        try await expectSameOnServer(path, "/in/p.bin")
    }

    @Test(arguments: [
        ["--direction", "up", "--reset-after", "700000"],
        ["--fail-request", "3", "--fail-request", "4", "--fail-request", "6", "--status", "503"],
        ["--direction", "up", "--stall-after", "900000", "--stall-seconds", "30"],
        ["--direction", "up", "--corrupt-at", "1500000"],
    ])
    func survivesFaults(fault: [String]) async throws {
        try await client.makeDirectory(try RemotePath(path: "/in"))
        let (viaProxy, proxy) = try await clientThroughProxy(fault)
        defer { proxy.stop() }
        let path = try file("f.bin", 2_500_000, seed: 4)
        var options = UploadOptions()
        options.chunkSize = 512 << 10
        options.maxAttemptsWithoutProgress = 10
        let result = try await uploader(stall: 1).upload(
            file: path, to: try target(viaProxy, "f.bin"), options: options)
        #expect(result.bytes == 2_500_000)
        try await expectSameOnServer(path, "/in/f.bin")
        #expect(try journalIsEmpty())
    }

    @Test func shrinksChunksWhenEveryConnectionDiesEarly() async throws {
        // Every connection is cut after 600 kB; 2 MiB checksummed chunks could never pass whole.
        try await client.makeDirectory(try RemotePath(path: "/in"))
        let (viaProxy, proxy) = try await clientThroughProxy(["--direction", "up", "--reset-after", "600000"])
        defer { proxy.stop() }
        let path = try file("cut.bin", 5_000_000, seed: 8)
        var options = UploadOptions()
        options.chunkSize = 2 << 20
        let result = try await uploader(stall: 1).upload(
            file: path, to: try target(viaProxy, "cut.bin"), options: options)
        #expect(result.bytes == 5_000_000)
        try await expectSameOnServer(path, "/in/cut.bin")
    }

    /// Parallel parts small enough to go inside their creations, on a link that cuts every body: the upload fails
    /// with the link's error (a creation carrying a whole part is never made again "without its first chunk":
    /// that would carry the part again, for good).
    @Test(.timeLimit(.minutes(30)))
    func smallPartsALinkCutsEveryTimeFailInsteadOfTryingForever() async throws {
        try await client.makeDirectory(try RemotePath(path: "/in"))
        let (viaProxy, proxy) = try await clientThroughProxy(["--direction", "up", "--reset-after", "600000"])
        defer { proxy.stop() }
        let path = try file("parts.bin", 3_000_000, seed: 13)
        var options = UploadOptions()
        options.parts = 2
        await #expect(throws: UploadError.self) {
            try await uploader(stall: 1).upload(file: path, to: try target(viaProxy, "parts.bin"), options: options)
        }
    }

    @Test func resumesAfterTheServerRestarts() async throws {
        let port = try NginxServer.freePort()
        var first: ReferenceServer? = try await ReferenceServer.start(
            root: server.root, state: server.state, port: port)
        var direct = OfficerClient(server: first!.url, http: .curl)
        direct.token = try await direct.signIn(email: first!.email, password: first!.password).token
        try await direct.makeDirectory(try RemotePath(path: "/in"))
        let (viaProxy, proxy) = try await clientThroughProxy(
            port: port, token: direct.token, ["--direction", "up", "--throttle", "1500000"])
        defer { proxy.stop() }
        let path = try file("r.bin", 4_000_000, seed: 5)
        var options = UploadOptions()
        options.chunkSize = 256 << 10
        options.terminateOnCancel = false
        let target = try target(viaProxy, "r.bin")
        try await uploadInterrupted(path, to: target, options: options)
        first!.service.kill()
        first = nil
        // Same port, same state folder, same signing secret: the journaled upload URL is valid again.
        let second = try await ReferenceServer.start(root: server.root, state: server.state, port: port)
        let result = try await uploader().upload(file: path, to: target, options: options)
        #expect(result.resumedBytes > 0 && result.resumedBytes < 4_000_000)
        #expect(result.sentBytes == 4_000_000 - result.resumedBytes)
        var checker = OfficerClient(server: second.url, http: .curl)
        checker.token = direct.token
        #expect(
            try await checker.sha256(try RemotePath(path: "/in/r.bin")).sha256 == (try ProcessRunner.sha256(of: path)))
    }

    @Test func aChangedLocalFileStartsOver() async throws {
        try await client.makeDirectory(try RemotePath(path: "/in"))
        let (viaProxy, proxy) = try await clientThroughProxy(["--direction", "up", "--throttle", "1000000"])
        defer { proxy.stop() }
        let path = try file("c.bin", 3_000_000, seed: 6)
        var options = UploadOptions()
        options.chunkSize = 256 << 10
        options.terminateOnCancel = false
        let target = try target(viaProxy, "c.bin")
        try await uploadInterrupted(path, to: target, options: options)
        let saved = try #require(try TransferJournal(path: local.file("journal.sqlite")).uploads().first)
        _ = try file("c.bin", 3_000_000, seed: 7)  // same size, new bytes
        let events = UploadEventLog()
        let result = try await uploader().upload(file: path, to: target, options: options, onEvent: events.add)
        #expect(result.resumedBytes == 0 && events.restarts == 1)
        try await expectSameOnServer(path, "/in/c.bin")
        // The stale upload was terminated on the server.
        var head = HTTPRequest(
            method: "HEAD", url: saved.parts[0].url!, credential: .forTests(client.token, saved.parts[0].url!))
        head.headers.add("Tus-Resumable", "1.0.0")
        let status = try await HTTPClient.curl.send(head).status
        #expect(status == 404, "HEAD of the stale upload answered \(status)")
    }

    /// A cancel (a Ctrl-C) while a resumed upload asks whether the server holds the file, after its last bytes,
    /// pauses it as a cancel anywhere else does: it failed as "not stored … could not ask the server whether it holds
    /// the file (GET …/sha256…: cancelled)", exit 7, and gave the server's upload up, so the next run sent it all again.
    @Test func aCancelWhileTheServerIsAskedPausesTheUpload() async throws {
        try await client.makeDirectory(try RemotePath(path: "/in"))
        let path = try file("asked.bin", 3_000_000, seed: 9)
        var options = UploadOptions()
        options.chunkSize = 256 << 10
        let target = try target(client, "asked.bin")
        try await uploadInterrupted(path, to: target, options: options)
        let interrupter = UploadInterrupter()
        let asking = RequestLogEngine(TestEngine.curl.engine) { request in
            if request.url.contains("/sha256") { interrupter.check { true } }
        }
        var resuming = try uploader()
        resuming.confirmer = client(over: asking)
        let task = Task { try await resuming.upload(file: path, to: target, options: options) }
        interrupter.attach(task)
        let outcome = await task.result
        #expect(interrupter.fired, "the server was asked")
        guard case .failure(UploadError.paused) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        // The next run finds every byte on the server: nothing is sent again.
        var rerun = try uploader()
        rerun.confirmer = client
        let result = try await rerun.upload(file: path, to: target, options: options)
        #expect(result.sentBytes == 0 && result.resumedBytes == 3_000_000, "\(result)")
        try await expectSameOnServer(path, "/in/asked.bin")
    }

    /// Kill an upload, overwrite 8 bytes of what the server kept, rerun: the resumed upload's end is checked against
    /// the server's SHA-256 and, as it differs, the file goes again from zero, once, with a warning (it said
    /// "resumed", exit 0, while the server held other bytes).
    /// In either resumable form (the IETF form's second creation must say `overwrite` in its query).
    @Test(arguments: [ResumableUploadForm.tus, .ietf])
    func aResumedUploadWhoseKeptBytesWereDamagedIsSentAgainFromZero(form: ResumableUploadForm) async throws {
        try await client.makeDirectory(try RemotePath(path: "/in"))
        let (viaProxy, proxy) = try await clientThroughProxy(["--direction", "up", "--throttle", "1000000"])
        defer { proxy.stop() }
        let path = try file("d.bin", 3_000_000, seed: 8)
        var options = UploadOptions()
        options.chunkSize = 256 << 10
        options.terminateOnCancel = false
        options.resumableForm = form
        let target = try target(viaProxy, "d.bin")
        try await uploadInterrupted(path, to: target, options: options)
        // The server's partial upload loses 8 bytes near its start, as a disk or another writer could do to it.
        let folder = server.state.file(form == .ietf ? "resumable" : "tus")
        let part = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".part") })
        let handle = try #require(FileHandle(forWritingAtPath: folder + "/" + part))
        try handle.seek(toOffset: 100)
        handle.write(Data(repeating: 0xA5, count: 8))
        try handle.close()
        let events = UploadEventLog()
        var checking = try uploader()
        checking.confirmer = viaProxy
        let result = try await checking.upload(file: path, to: target, options: options, onEvent: events.add)
        #expect(result.resumedBytes == 0 && events.restarts == 1, "\(result)")
        #expect(events.warnings.contains { $0.contains("SHA-256 differs") && $0.contains("again from the start") })
        try await expectSameOnServer(path, "/in/d.bin")
    }

    @Test func aPartThatExpiredStartsTheUploadOverAndTheOtherPartsGoToo() async throws {
        try await client.makeDirectory(try RemotePath(path: "/in"))
        let (viaProxy, proxy) = try await clientThroughProxy(["--direction", "up", "--throttle", "1000000"])
        defer { proxy.stop() }
        let path = try file("e.bin", 4_000_000, seed: 11)
        let target = try target(viaProxy, "e.bin")
        var options = UploadOptions()
        options.parts = 3
        options.chunkSize = 256 << 10
        // Cancelled from the upload's own callback once the journal holds confirmed bytes.
        let interrupter = UploadInterrupter()
        let task = Task {
            try await uploader().upload(file: path, to: target, options: options) { _ in
                interrupter.check { ((try? journaledOffset()) ?? 0) > 512 << 10 }
            }
        }
        interrupter.attach(task)
        defer { #expect(interrupter.fired, "cancelled midway") }
        _ = await task.result
        // The server lets the first part expire (its state says so); the other two would live on. A HEAD first:
        // the server then stops any PATCH the proxy is still passing on, which would write the state again.
        let saved = try #require(try TransferJournal(path: local.file("journal.sqlite")).uploads().first)
        for part in saved.parts {
            var head = HTTPRequest(method: "HEAD", url: part.url!, credential: .forTests(client.token, part.url!))
            head.headers.add("Tus-Resumable", "1.0.0")
            #expect(try await HTTPClient.curl.send(head).status == 200)
        }
        let tus = server.state.path + "/tus"
        let first = tus + "/" + (saved.parts[0].url! as NSString).lastPathComponent + ".json"
        var state = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: first))) as? [String: Any])
        state["expires"] = 0
        try JSONSerialization.data(withJSONObject: state).write(to: URL(fileURLWithPath: first))

        let events = UploadEventLog()
        let result = try await uploader().upload(file: path, to: target, options: options, onEvent: events.add)
        #expect(result.resumedBytes == 0 && events.restarts == 1)
        try await expectSameOnServer(path, "/in/e.bin")
        // No part of the first attempt is left on the server: each was terminated, not left to expire.
        for part in saved.parts {
            let id = (part.url! as NSString).lastPathComponent
            #expect(
                !FileManager.default.fileExists(atPath: tus + "/" + id + ".part"),
                "part \(part.index) left on the server")
            #expect(
                !FileManager.default.fileExists(atPath: tus + "/" + id + ".json"),
                "part \(part.index) left on the server")
        }
    }

    @Test func cancellingTerminatesTheUpload() async throws {
        try await client.makeDirectory(try RemotePath(path: "/in"))
        let (viaProxy, proxy) = try await clientThroughProxy(["--direction", "up", "--throttle", "500000"])
        defer { proxy.stop() }
        let path = try file("x.bin", 3_000_000, seed: 8)
        let target = try target(viaProxy, "x.bin")
        var options = UploadOptions()
        options.chunkSize = 256 << 10
        // The library's cancel-and-discard: by default a cancelled upload is paused instead (CLI test `ctrlCPauses…`).
        options.terminateOnCancel = true
        // Cancelled from the upload's own callback once bytes are confirmed (a loaded machine can take longer than
        // any fixed wait to create it, and a polling thread can be starved while it runs its course).
        let interrupter = UploadInterrupter()
        let task = Task {
            try await uploader().upload(file: path, to: target, options: options) { _ in
                interrupter.check { ((try? journaledOffset()) ?? 0) > 0 }
            }
        }
        interrupter.attach(task)
        guard case .failure(UploadError.cancelled) = await task.result else {
            Issue.record("expected cancellation")
            return
        }
        #expect(try journalIsEmpty())
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: server.state.path + "/tus")
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func interoperatesWithAiohttpTus() async throws {
        let folder = TemporaryDirectory(prefix: "aiohttp-tus")
        let other = try await startInteropTusServer(folder: folder.path)
        let path = try file("i.bin", 2_000_000, seed: 9)
        var options = UploadOptions()
        options.chunkSize = 512 << 10
        let result = try await uploader().upload(
            file: path, to: UploadTarget.tus(url: other.url + "/uploads", fileName: "i.bin"), options: options)
        #expect(result.method == .tus)
        #expect(try ProcessRunner.sha256(of: folder.file("i.bin")) == (try ProcessRunner.sha256(of: path)))
    }

    @Test func aStockBodyLimitJustWorks() async throws {
        // aiohttp-tus as installed: requests over 1 MiB get 413. Chunks halve and stay below for the run.
        let folder = TemporaryDirectory(prefix: "interop-stock")
        let other = try await startInteropTusServer(folder: folder.path, stock: true)
        let path = try file("stock.bin", 12_000_000, seed: 12)
        let events = UploadEventLog()
        let result = try await uploader().upload(
            file: path, to: UploadTarget.tus(url: other.url + "/uploads", fileName: "stock.bin"), onEvent: events.add)
        #expect(result.method == .tus)
        #expect(try ProcessRunner.sha256(of: folder.file("stock.bin")) == (try ProcessRunner.sha256(of: path)))
        #expect(events.retryReasons.contains { $0.contains("at most") }, "\(events.retryReasons)")
        // A file small enough to go whole inside its creation, refused there as too large: created without it,
        // then sent in chunks below the limit.
        let small = try file("small.bin", 2_000_000, seed: 14)
        _ = try await uploader().upload(
            file: small, to: UploadTarget.tus(url: other.url + "/uploads", fileName: "small.bin"))
        #expect(try ProcessRunner.sha256(of: folder.file("small.bin")) == (try ProcessRunner.sha256(of: small)))
    }

    @Test func fallsBackToMultipartWithoutTus() async throws {
        try await client.makeDirectory(try RemotePath(path: "/in"))
        let path = try file("m.bin", 700_000, seed: 10)
        var target = try target(client, "m.bin", mtime: 1_600_000_000)
        target.tusEndpoint = server.url + "/api/no-tus-here"
        target.resumableEndpoint = server.url + "/api/no-resumable-here"
        let result = try await uploader().upload(file: path, to: target)
        #expect(result.method == .multipart)
        try await expectSameOnServer(path, "/in/m.bin")
        #expect(try await client.stat(try RemotePath(path: "/in/m.bin")).mtime == 1_600_000_000)
    }

    /// A cancel (a Ctrl-C) while a multipart upload asks whether its name is free ends as a cancel: it failed as
    /// "not stored … could not ask the server whether the name is free (GET …: cancelled)", an API URL in the line.
    @Test func aCancelWhileTheNameIsAskedEndsAsACancel() async throws {
        try await client.makeDirectory(try RemotePath(path: "/in"))
        let path = try file("named.bin", 700_000, seed: 11)
        var target = try target(client, "named.bin")
        target.tusEndpoint = server.url + "/api/no-tus-here"
        target.resumableEndpoint = server.url + "/api/no-resumable-here"
        let interrupter = UploadInterrupter()
        let asking = RequestLogEngine(TestEngine.curl.engine) { request in
            if request.method == "GET" { interrupter.check { true } }
        }
        var uploader = try uploader()
        uploader.confirmer = client(over: asking)
        let task = Task { try await uploader.upload(file: path, to: target) }
        interrupter.attach(task)
        let outcome = await task.result
        #expect(interrupter.fired, "the server was asked")
        guard case .failure(UploadError.cancelled(path)) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: server.root.file("in/named.bin")))
    }

    @Test func refusesWhatCannotWork() async throws {
        await #expect(throws: UploadError.localFile(path: local.file("none"), message: "No such file or directory")) {
            try await uploader().upload(file: local.file("none"), to: try target(client, "none"))
        }
        let probe = try await startRedirectProbe()
        let path = try file("n.bin", 10)
        await #expect(throws: UploadError.notTus(url: probe.url + "/echo-auth")) {
            try await uploader().upload(
                file: path, to: UploadTarget.tus(url: probe.url + "/echo-auth", fileName: "n.bin"))
        }
        try await client.makeDirectory(try RemotePath(path: "/in"))
        try server.root.write("in/taken.bin", "old")
        await #expect {
            try await uploader().upload(file: path, to: try target(client, "taken.bin"))
        } throws: { error in
            guard case UploadError.server(_, 409, _) = error else { return false }
            return true
        }
        #expect(try String(contentsOfFile: server.root.file("in/taken.bin"), encoding: .utf8) == "old")
        _ = try await uploader().upload(file: path, to: try target(client, "taken.bin", overwrite: true))
        try await expectSameOnServer(path, "/in/taken.bin")
    }
}

final class UploadEventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [TransferEvent] = []
    func add(_ event: TransferEvent) { lock.withLock { events.append(event) } }
    var parts: Int {
        lock.withLock {
            events.compactMap { if case .started(_, let parts, _, _, _) = $0 { parts.count } else { nil } }.last ?? 0
        }
    }
    var restarts: Int { lock.withLock { events.filter { if case .restarted = $0 { true } else { false } }.count } }
    var warnings: [String] {
        lock.withLock { events.compactMap { if case .warning(let text) = $0 { text } else { nil } } }
    }
    var retryReasons: [String] {
        lock.withLock { events.compactMap { if case .retrying(_, _, _, let reason) = $0 { reason } else { nil } } }
    }
}

/// Cancels an upload from inside its own event callback, the moment a condition holds: no polling thread to be
/// starved on a loaded machine while the upload runs its course (a 3 MB upload was seen to finish unseen).
final class UploadInterrupter: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<UploadResult, any Error>?
    private var due = false
    /// Whether the condition held and the upload was cancelled.
    var fired: Bool { lock.withLock { due } }

    func attach(_ task: Task<UploadResult, any Error>) {
        lock.withLock {
            self.task = task
            if due { task.cancel() }
        }
    }

    /// Cancels once when `condition` holds.
    func check(_ condition: () -> Bool) {
        guard !fired, condition() else { return }
        lock.withLock {
            due = true
            task?.cancel()
        }
    }
}

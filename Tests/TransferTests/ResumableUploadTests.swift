import FileModel
import Foundation
import Journal
import TestSupport
import Testing

@testable import HTTP
@testable import Officer
@testable import Transfer

/// Uploads in the IETF resumable-upload form (draft-ietf-httpbis-resumable-upload) against the reference server's
/// proposal, in the three interop versions, on both engines, through faults, and resumed by a second run: every test
/// compares the bytes the server holds with the local file's.
@Suite struct ResumableUploadTests {
    let local = TemporaryDirectory(prefix: "resumable-uploads")

    /// A signed-in client of `server` on `engine`.
    func client(_ server: ReferenceServer, engine: TestEngine = .curl, url: String? = nil) async throws
        -> OfficerClient
    {
        var client = OfficerClient(server: url ?? server.url, http: engine.client())
        client.token = try await OfficerClient(server: server.url, http: .curl).signIn(
            email: server.email, password: server.password
        ).token
        return client
    }

    func uploader(_ engine: TestEngine = .curl, stall: Double = 30) throws -> TusUploader {
        var configuration = HTTPClientConfiguration()
        configuration.retry.baseDelay = 0.05
        configuration.retry.maxDelay = 0.3
        configuration.stallTimeout = stall
        return TusUploader(
            http: engine.client(configuration), journal: try TransferJournal(path: local.file("journal.sqlite")))
    }

    func ietf(version: Int = 6, chunk: Int64? = 1 << 20) -> UploadOptions {
        var options = UploadOptions()
        options.resumableForm = .ietf
        options.ietfInteropVersion = version
        options.chunkSize = chunk
        return options
    }

    func file(_ name: String, _ count: Int, seed: UInt8) throws -> String {
        try local.write(
            name, Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &* 7 &+ $0 >> 9) }))
    }

    func expectSame(_ path: String, _ stored: String) throws {
        #expect(try ProcessRunner.sha256(of: stored) == (try ProcessRunner.sha256(of: path)), "\(stored)")
    }

    func target(_ client: OfficerClient, _ name: String, overwrite: Bool = false) throws -> UploadTarget {
        try client.uploadTarget(name: name, into: try RemotePath(path: "/in"), mtime: nil, overwrite: overwrite)
    }

    /// Runs an upload and cancels it from its own callback once the journal holds bytes the server confirmed.
    func interrupted(_ path: String, _ target: UploadTarget, _ options: UploadOptions) async
        -> Result<UploadResult, any Error>
    {
        let interrupter = UploadInterrupter()
        let journal = local.file("journal.sqlite")
        let task = Task {
            try await uploader().upload(file: path, to: target, options: options) { _ in
                interrupter.check {
                    ((try? TransferJournal(watching: journal).uploads().first?.parts[0].offset) ?? 0) > 0
                }
            }
        }
        interrupter.attach(task)
        return await task.result
    }

    /// A server with `/in`, and a client that reaches it through a proxy sending at most `rate` bytes/s up.
    func throttled(upTo rate: Int) async throws -> (ReferenceServer, BackgroundService, OfficerClient) {
        let server = try await ReferenceServer.start()
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)", ["--direction", "up", "--throttle", String(rate)])
        let client = try await client(server, url: proxy.url)
        try await client.makeDirectory(try RemotePath(path: "/in"))
        return (server, proxy, client)
    }

    func journalIsEmpty() throws -> Bool { try TransferJournal(path: local.file("journal.sqlite")).uploads().isEmpty }

    static let versionsOnEngines = TestEngine.allCases.flatMap { engine in
        UploadDialect.ietfVersions.map { (engine, $0) }
    }

    @Test(arguments: versionsOnEngines)
    func uploadsInEachInteropVersionOnEitherEngine(_ engine: TestEngine, version: Int) async throws {
        let server = try await ReferenceServer.start()
        let client = try await client(server, engine: engine)
        try await client.makeDirectory(try RemotePath(path: "/in"))
        let path = try file("big.bin", 2_500_000, seed: 1)
        let named = try client.uploadTarget(
            name: "b ü %41%25&=+.bin", into: try RemotePath(path: "/in"), mtime: 1_700_000_000.5, overwrite: false)
        let result = try await uploader(engine).upload(file: path, to: named, options: ietf(version: version))
        #expect(result.method == .resumable && result.sentBytes == 2_500_000 && result.resumedBytes == 0)
        try expectSame(path, server.root.file("in/b ü %41%25&=+.bin"))
        #expect(try await client.stat(try RemotePath(path: "/in/b ü %41%25&=+.bin")).mtime == 1_700_000_000.5)
        // A small file goes whole in the creation; an empty one is created complete.
        let small = try local.write("s.txt", "small")
        let empty = try local.write("empty", Data())
        for (name, path) in [("s.txt", small), ("empty", empty)] {
            let sent = try await uploader(engine).upload(
                file: path, to: try target(client, name),
                options: ietf(version: version))
            #expect(sent.method == .resumable)
            try expectSame(path, server.root.file("in/" + name))
        }
        #expect(try journalIsEmpty())
        let left = try FileManager.default.contentsOfDirectory(atPath: server.state.file("resumable"))
        #expect(left.allSatisfy { $0.hasSuffix(".json") }, "only finished records stay: \(left)")
    }

    @Test(arguments: [
        ["--direction", "up", "--reset-after", "700000"],
        ["--fail-request", "3", "--fail-request", "4", "--fail-request", "6", "--status", "503"],
        ["--direction", "up", "--corrupt-at", "1500000"],
    ])
    func survivesFaults(fault: [String]) async throws {
        let server = try await ReferenceServer.start()
        let proxy = try await startFaultProxy(target: "127.0.0.1:\(server.service.port)", fault)
        defer { proxy.stop() }
        let client = try await client(server, url: proxy.url)
        try await client.makeDirectory(try RemotePath(path: "/in"))
        let path = try file("f.bin", 2_500_000, seed: 4)
        var options = ietf(chunk: 512 << 10)
        options.maxAttemptsWithoutProgress = 10
        let result = try await uploader(stall: 1).upload(
            file: path, to: try target(client, "f.bin"),
            options: options)
        #expect(result.method == .resumable && result.bytes == 2_500_000)
        try expectSame(path, server.root.file("in/f.bin"))
        #expect(try journalIsEmpty())
    }

    /// Paused midway, the upload is continued by a new uploader (a new process) from the server's offset in the same
    /// form, and nothing is sent twice.
    @Test func aPausedUploadIsContinuedFromTheServersOffset() async throws {
        let (server, proxy, client) = try await throttled(upTo: 1000000)
        defer { proxy.stop() }
        let path = try file("p.bin", 3_000_000, seed: 6)
        let target = try target(client, "p.bin")
        let options = ietf(chunk: 256 << 10)
        let journal = local.file("journal.sqlite")
        guard case .failure(UploadError.paused(_, let confirmed, _)) = await interrupted(path, target, options) else {
            Issue.record("expected a pause")
            return
        }
        #expect(try TransferJournal(path: journal).uploads().first?.dialect == .ietf(version: 6))
        // Continued in the form it was journaled in, though this run asks for none in particular.
        var plain = UploadOptions()
        plain.chunkSize = 256 << 10
        let result = try await uploader().upload(file: path, to: target, options: plain)
        #expect(result.method == .resumable && result.resumedBytes >= confirmed && result.resumedBytes > 0)
        #expect(result.sentBytes == 3_000_000 - result.resumedBytes)
        try expectSame(path, server.root.file("in/p.bin"))
        #expect(try journalIsEmpty())
    }

    /// tus is the default where both are offered, the IETF form where it is the only one (no multipart fallback that
    /// cannot resume), and the one asked for wins where both are.
    @Test func theFormTakenIsTheOneOfferedOrAskedFor() async throws {
        let both = try await ReferenceServer.start()
        let withoutTus = try await ReferenceServer.start(arguments: ["--no-tus"])
        let path = try file("w.bin", 1_500_000, seed: 9)
        for (server, form, expected) in [
            (both, ResumableUploadForm.automatic, UploadMethod.tus), (both, .ietf, .resumable),
            (withoutTus, .automatic, .resumable), (withoutTus, .tus, .resumable),
        ] {
            let client = try await client(server)
            try await client.makeDirectory(try RemotePath(path: "/in"), parents: true)
            var options = UploadOptions()
            options.resumableForm = form
            options.chunkSize = 512 << 10
            let result = try await uploader().upload(
                file: path,
                to: try target(client, "w.bin", overwrite: true),
                options: options)
            #expect(result.method == expected, "\(form) on \(server.url)")
            try expectSame(path, server.root.file("in/w.bin"))
        }
    }

    /// A server of an older system's draft (version 3 only) refuses version 6: the client asks 5, then 3, and
    /// uploads in that.
    @Test func aServerOfAnOlderDraftIsSpokenInItsVersion() async throws {
        let server = try await ReferenceServer.start(arguments: ["--no-tus", "--resumable-versions", "3"])
        let client = try await client(server)
        try await client.makeDirectory(try RemotePath(path: "/in"))
        let path = try file("old.bin", 1_500_000, seed: 3)
        var options = UploadOptions()
        options.chunkSize = 512 << 10
        let target = try target(client, "old.bin")
        let info = try await uploader().resumableForm(of: target, path: path, options: options)
        #expect(info?.dialect == .ietf(version: 3))
        let result = try await uploader().upload(file: path, to: target, options: options)
        #expect(result.method == .resumable)
        try expectSame(path, server.root.file("in/old.bin"))
    }

    /// Cancelled with `terminateOnCancel`, the server's upload is deleted in the form it was made in.
    @Test func aCancelledUploadIsDeletedOnTheServer() async throws {
        let (server, proxy, client) = try await throttled(upTo: 500000)
        defer { proxy.stop() }
        let path = try file("x.bin", 3_000_000, seed: 8)
        var options = ietf(chunk: 256 << 10)
        options.terminateOnCancel = true
        guard case .failure(UploadError.cancelled) = await interrupted(path, try target(client, "x.bin"), options)
        else {
            Issue.record("expected cancellation")
            return
        }
        #expect(try journalIsEmpty())
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: server.state.file("resumable"))
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}

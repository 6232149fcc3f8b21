import FileModel
import Foundation
import TestSupport
import Testing
import Transfer

@testable import Officer

/// The front door's server operations without the CLI: jobs followed by their events, stream uploads through
/// a link that drops connections, the zip of many.
@Suite struct OfficerFilesJobTests {
    let server: ReferenceServer
    let work = TemporaryDirectory(prefix: "front-door-jobs")

    init() async throws {
        server = try await ReferenceServer.start(arguments: ["--async-after", "0"])
    }

    func signedIn(server url: String? = nil) async throws -> OfficerFiles {
        let tokens = MemoryTokenStore()
        var configuration = OfficerFiles.Configuration(server: server.url, tokens: tokens)
        configuration.http.engine = TestEngine.urlSession.engine
        configuration.journalPath = work.path + "/journal.sqlite"
        configuration.http.retry.baseDelay = 0.05
        let files = try OfficerFiles(configuration: configuration)
        try await files.signIn(email: server.email, password: server.password)
        guard let url else { return files }
        configuration.server = url
        tokens.save(tokens.token(for: server.url)!, for: url)
        return try OfficerFiles(configuration: configuration)
    }

    @Test func extractionIsAJobWhoseEventsEndInItsResult() async throws {
        let files = try await signedIn()
        let made = try await ProcessRunner.runDetached(
            ProcessRunner.packageRoot + "/.venv/bin/python",
            [
                "-c",
                "import zipfile; z = zipfile.ZipFile('\(server.root.file("a.zip"))', 'w'); z.writestr('x/one.txt', 'one'); z.writestr('two.txt', 'two' * 100000); z.close()",
            ])
        try #require(made.status == 0)
        let job = try await files.server.extract(try files.path("officer:/a.zip"))
        #expect(job.state == .queued || job.state == .running || job.state == .done)
        let operation = files.server.follow(job)
        var seen: [Job] = []
        for await case .changed(let current) in operation { seen.append(current) }
        let final = try await operation.value
        #expect(final.state == .done && seen.last?.state == .done)
        #expect(seen.map(\.revision) == seen.map(\.revision).sorted(), "changes arrive in order")
        #expect(final.result(as: ExtractResponse.self)?.extracted == 2)
        #expect(final.createdEntries.map(\.path) == ["/a"])
        #expect(FileManager.default.contents(atPath: server.root.file("a/x/one.txt")) == Data("one".utf8))
        // Listed, then cancelling a finished job changes nothing.
        #expect(try await files.server.jobs().contains { $0.id == job.id && $0.state == .done })
        #expect(try await files.server.cancelJob(id: job.id).state == .done)
        // A second extraction into the same folder is refused before any job, by type.
        await #expect(throws: FrontDoorRefusal.folderExists(try files.path("officer:/a"))) {
            _ = try await files.server.extract(try files.path("officer:/a.zip"))
        }
    }

    @Test func aFailedJobIsThrownAsItsRequestsError() async throws {
        let files = try await signedIn()
        try server.root.write("fake.mkv", "not a video")
        let job = try await files.server.transcode(try files.path("officer:/fake.mkv"))
        do {
            _ = try await files.server.follow(job).value
            Issue.record("a failed transcode must throw")
        } catch let error as OfficerError {
            #expect(ErrorCategory.of(error) == .refused || ErrorCategory.of(error) == .server)
            #expect("\(error)".contains("fake.mkv") || "\(error)".contains("ffprobe"))
        }
        let ended = try await files.server.follow(job, requireSuccess: false).value
        #expect(ended.state == .failed && ended.error?.code != nil)
    }

    @Test func aStreamGoesUpThroughALinkThatDropsConnections() async throws {
        // Every connection is cut after 3 MB up: 8 MiB requests never pass, so they shrink and carry on.
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)", ["--direction", "up", "--reset-after", "3000000"])
        defer { proxy.stop() }
        let files = try await signedIn(server: proxy.url)
        // Random bytes from the kernel: a byte-by-byte loop here would hold one of the shared pool's two threads.
        let bytes = try #require(FileHandle(forReadingAtPath: "/dev/urandom")).readData(ofLength: 20_000_000)
        let stream = AsyncThrowingStream<Data, any Error> { continuation in
            var offset = 0
            while offset < bytes.count {
                let count = min(1 << 16 + offset % 7_919, bytes.count - offset)
                continuation.yield(bytes.subdata(in: offset..<offset + count))
                offset += count
            }
            continuation.finish()
        }
        let operation = files.server.upload(
            stream: stream, label: "generated", to: try files.path("officer:/streamed.bin"))
        var retried = 0
        for await event in operation { if case .retrying = event { retried += 1 } }
        let result = try await operation.value
        #expect(result.bytes == 20_000_000 && retried > 0)
        #expect(FileManager.default.contents(atPath: server.root.file("streamed.bin")) == bytes)
        #expect(result.sha256 == (try await ProcessRunner.sha256Detached(of: server.root.file("streamed.bin"))))
    }

    @Test func aCancelledStreamLeavesNothingOnTheServer() async throws {
        let files = try await signedIn()
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        continuation.yield(Data(repeating: 7, count: 9 << 20))
        continuation.yield(Data(repeating: 8, count: 9 << 20))
        let operation = files.server.upload(stream: stream, to: try files.path("officer:/never.bin"))
        var started = false
        for await event in operation {
            if case .progress(_, let done) = event, done >= 8 << 20, !started {
                started = true
                operation.cancel()
            }
        }
        await #expect(throws: UploadError.cancelled(path: "-")) { try await operation.value }
        #expect(!FileManager.default.fileExists(atPath: server.root.file("never.bin")))
        let left = (try? FileManager.default.contentsOfDirectory(atPath: server.state.path + "/tus")) ?? []
        #expect(left.isEmpty, "the server's partial upload is removed: \(left)")
    }
}

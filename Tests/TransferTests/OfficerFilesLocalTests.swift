import FileModel
import Foundation
import Journal
import Synchronization
import TestSupport
import Testing
import VipsImaging

@testable import Officer

/// The front door's local operations, with no server at all: what an app can do before (or without) signing
/// in — archives, image preparation, file facts, the cache — and how Officer operations fail then.
@Suite struct OfficerFilesLocalTests {
    let work = TemporaryDirectory(prefix: "front-door-local")

    func files(cache: Bool = true, offline: Bool = false) throws -> OfficerFiles {
        var configuration = OfficerFiles.Configuration(server: nil)
        configuration.http.engine = TestEngine.urlSession.engine
        configuration.journalPath = work.file("journal.sqlite")
        configuration.cacheDirectory = cache ? work.file("cache") : nil
        configuration.http.offline = offline
        return try OfficerFiles(configuration: configuration)
    }

    @Test func officerOperationsSayThereIsNoServer() async throws {
        let files = try files()
        let path = try files.path("officer:/Photos")
        do {
            _ = try await files.server.list(path)
            Issue.record("expected noServer")
        } catch {
            #expect(error as? FrontDoorRefusal == .noServer)
            #expect(ErrorCategory.of(error) == .invalidInput)
        }
        var walked: (any Error)?
        do {
            for try await _ in files.server.walk(path) {}
        } catch {
            walked = error
        }
        #expect(walked as? FrontDoorRefusal == .noServer)
        let upload = files.server.upload(try work.write("a.txt", "a"), to: path)
        await #expect(throws: FrontDoorRefusal.noServer) { try await upload.value }
        // A tus server needs no Officer server; an Officer destination does.
        let photo = try work.write("b.txt", "b")
        let tus = try await files.planUpload(
            of: [photo], to: .url("http://127.0.0.1:9/files/"), request: UploadRequest(), queueing: false)
        #expect(tus.landing(of: photo) == .url("http://127.0.0.1:9/files/"))
        await #expect(throws: FrontDoorRefusal.noServer) {
            _ = try await files.planUpload(
                of: [photo], to: try files.location("officer:/Photos/"), request: UploadRequest(), queueing: false)
        }
        // Offline, a plain URL is refused before any connection.
        let offline = try self.files(offline: true)
        await #expect(throws: FrontDoorRefusal.needsNetwork("http://127.0.0.1:9/x")) {
            try await offline.read(.url("http://127.0.0.1:9/x"), to: -1)
        }
    }

    @Test func inspectsArchivesAndReadsOneMember() async throws {
        let files = try files()
        try work.write("in/a.txt", "alpha\n")
        try work.write("in/sub/b.txt", "beta\n")
        let zipped = try ProcessRunner.run(
            "/usr/bin/bsdtar", ["--format", "zip", "-cf", work.file("x.zip"), "-C", work.file("in"), "a.txt", "sub"])
        try #require(zipped.status == 0, "\(zipped.stderr)")
        let archive = Location.local(work.file("x.zip"))
        let inspection = try await files.inspectArchive(archive)
        #expect(inspection.fileCount == 2 && inspection.warnings.isEmpty, "\(inspection)")
        #expect(Set(inspection.members.map(\.path)) == ["a.txt", "sub/", "sub/b.txt"])
        let bytes = Mutex(Data())
        try await files.readArchiveMember("sub/b.txt", of: archive) { read in
            bytes.withLock { $0.append(contentsOf: read) }
        }
        #expect(String(decoding: bytes.withLock { $0 }, as: UTF8.self) == "beta\n")
        await #expect(throws: ArchiveMemberNotFound(archive: work.file("x.zip"), member: "nope")) {
            try await files.readArchiveMember("nope", of: archive) { _ in }
        }
        await #expect(throws: LocalFileError(path: work.file("missing.zip"), problem: .missing)) {
            try await files.inspectArchive(.local(work.file("missing.zip")))
        }
        await #expect(throws: LocalFileError(path: work.path, problem: .isAFolder)) {
            try await files.inspectArchive(.local(work.path))
        }
        do {
            try await files.readArchiveMember("a.txt", of: archive, limit: 3) { _ in }
            Issue.record("expected tooLarge")
        } catch {
            guard case ArchiveError.tooLarge = error else { Issue.record("\(error)"); return }
            #expect(!"\(error)".contains("--"), "a library message names no option: \(error)")
        }
    }

    @Test func preparesImagesIntoAFolderAndNeverOverwritesUnasked() async throws {
        let files = try files()
        for name in ["one", "two"] {
            try VipsImage.black(width: 400, height: 300).writePNG(to: work.file("\(name).png"))
        }
        try VipsImage.black(width: 400, height: 300).writeJPEG(to: work.file("whole.jpg"))
        let whole = try Data(contentsOf: URL(fileURLWithPath: work.file("whole.jpg")))
        try work.write("broken.jpg", whole.prefix(whole.count / 3))
        try FileManager.default.createDirectory(atPath: work.file("out"), withIntermediateDirectories: true)
        var options = ImagePreparationOptions()
        options.maxEdge = 100
        options.format = .jpeg
        let inputs = [work.file("one.png"), work.file("broken.jpg"), work.file("two.png")]
        let outcomes = try await files.prepareImages(inputs, to: work.file("out"), options: options)
        #expect(outcomes.map(\.input) == inputs, "in the inputs' order")
        #expect(outcomes[0].output == work.file("out/one.jpg") && outcomes[2].output == work.file("out/two.jpg"))
        let prepared = try outcomes[0].result.get()
        #expect(prepared.width == 100 && prepared.height == 75 && prepared.format == .jpeg)
        #expect(FileManager.default.fileExists(atPath: work.file("out/two.jpg")))
        guard case .failure(.undecodable) = outcomes[1].result else { Issue.record("\(outcomes[1].result)"); return }

        let again = try await files.prepareImages(
            [work.file("one.png")], to: work.file("out/one.jpg"), options: options)
        #expect(again[0].result.failureValue == .outputExists(file: work.file("out/one.jpg")))
        await #expect(throws: LocalFileError(path: work.file("one.png"), problem: .notAFolder)) {
            _ = try await files.prepareImages(
                [work.file("two.png"), work.file("two.png")], to: work.file("one.png"), options: options)
        }
    }

    @Test func preparedUploadsComeInOrderOneWindowAhead() async throws {
        let files = try files()
        var inputs: [String] = []
        for index in 0..<5 {
            let path = work.file("p\(index).png")
            try VipsImage.black(width: 300, height: 200).writePNG(to: path)
            inputs.append(path)
        }
        inputs.insert(try work.write("notes.txt", "not an image"), at: 2)
        var options = ImagePreparationOptions()
        options.maxEdge = 64
        options.format = .jpeg
        let preparation = UploadImagePreparation(options: options, bestEffort: false, folder: work.file("prepared"))
        var seen: [String] = []
        for await (local, result) in PreparedUploads(inputs, preparation: preparation, width: 1) {
            seen.append(local)
            let item = try result.get()
            if local.hasSuffix(".txt") {
                #expect(item.path == local && item.temporary == nil, "a file that is not an image goes as it is")
            } else {
                #expect(item.name == ((local as NSString).lastPathComponent as NSString).deletingPathExtension + ".jpg")
                #expect(item.temporary.map { FileManager.default.fileExists(atPath: $0) } == true)
            }
        }
        #expect(seen == inputs)
        _ = files
    }

    @Test func localFactsKeepTheOrderAndNameWhatFailed() async throws {
        let files = try files()
        let text = try work.write("notes.txt", "one\ntwo\n")
        let results = await files.facts(ofLocalFiles: [text, work.file("missing.txt")])
        #expect(try results[0].get().lines == 2)
        guard case .failure(let error) = results[1] else { Issue.record("expected a failure"); return }
        #expect("\(error)".contains("missing.txt"), "\(error)")
    }

    @Test func cacheOperationsWorkOnTheConfiguredCacheOnly() async throws {
        let files = try files()
        let cache = try #require(try files.cache())
        let key = CacheKey(server: "s", root: "home", path: "/a.txt", kind: CacheKey.Kind.body)
        try cache.store(Data("cached".utf8), for: key, version: "\"v1\"")
        try cache.store(
            Data("kept".utf8), for: CacheKey(server: "s", root: "home", path: "/b.txt", kind: CacheKey.Kind.body),
            version: "\"v1\"")
        try cache.setPinned(true, for: CacheKey(server: "s", root: "home", path: "/b.txt", kind: CacheKey.Kind.body))
        #expect(try files.cacheStatistics().entries == 2)
        #expect(try files.cacheEntries().map(\.key.path).sorted() == ["/a.txt", "/b.txt"])
        #expect(try await files.verifyCache().repairedAnything == false)
        let cleared = try files.clearCache()
        #expect(cleared.entries == 1 && cleared.bytes == 6)
        #expect(try files.cacheStatistics().pinnedEntries == 1)
        #expect(try files.clearCache(includingPinned: true).entries == 1)

        let without = try self.files(cache: false)
        #expect(throws: FrontDoorRefusal.noCache) { try without.cacheStatistics() }
    }
}

extension Result {
    /// The error of a failed result.
    fileprivate var failureValue: Failure? { if case .failure(let error) = self { error } else { nil } }
}

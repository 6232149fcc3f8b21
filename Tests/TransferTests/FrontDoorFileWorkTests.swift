import FileModel
import Foundation
import Officer
import TestSupport
import Testing

/// An app's work on one file through the front door's `Location` calls: thumbnails (Officer and local), OCR
/// and speech on the server, a file kept for offline use and read back offline; a remote that cannot say so.
@Suite struct FrontDoorFileWorkTests {
    let server: ReferenceServer
    let work = TemporaryDirectory(prefix: "front-door-work")

    init() async throws {
        server = try await ReferenceServer.start()
    }

    func files(offline: Bool = false, tokens: MemoryTokenStore) throws -> OfficerFiles {
        var configuration = OfficerFiles.Configuration(server: server.url, tokens: tokens)
        configuration.http.engine = TestEngine.urlSession.engine
        configuration.journalPath = work.path + "/journal.sqlite"
        configuration.cacheDirectory = work.path + "/cache"
        configuration.http.offline = offline
        configuration.objectStores = [
            ObjectStoreRemote(name: "st", endpoint: "http://127.0.0.1:9", accessKey: "a", secretKey: "b")
        ]
        return try OfficerFiles(configuration: configuration)
    }

    func width(ofJPEG data: Data) throws -> Int {
        let path = work.file("thumb-\(UUID().uuidString).jpg")
        try data.write(to: URL(fileURLWithPath: path))
        let text = try ProcessRunner.run("/usr/bin/vipsheader", ["-f", "width", path]).stdout
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    @Test func thumbnailsTextSpeechAndOfflineCopiesByLocation() async throws {
        let tokens = MemoryTokenStore()
        let files = try files(tokens: tokens)
        try await files.signIn(email: server.email, password: server.password)
        let photo = server.root.file("Photos/noise.jpg")
        try FileManager.default.createDirectory(
            atPath: server.root.file("Photos"), withIntermediateDirectories: true)
        #expect(try ProcessRunner.run("/usr/bin/vips", ["gaussnoise", photo, "800", "600"]).status == 0)
        let local = work.file("local.jpg")
        #expect(try ProcessRunner.run("/usr/bin/vips", ["gaussnoise", local, "300", "900"]).status == 0)

        let remoteThumb = try await files.thumbnail(of: try files.location("officer:/Photos/noise.jpg"), size: 128)
        let remoteWidth = try width(ofJPEG: remoteThumb)
        #expect(remoteThumb.starts(with: [0xFF, 0xD8]) && remoteWidth == 128)
        let localThumb = try await files.thumbnail(of: .local(local), size: 90)
        let localWidth = try width(ofJPEG: localThumb)
        #expect(localThumb.starts(with: [0xFF, 0xD8]) && localWidth == 30)

        // OCR of an image made here, on the server and from a local file.
        let scan = work.file("scan.png")
        let drawn = try ProcessRunner.run(
            "/usr/bin/convert",
            [
                "-size", "900x200", "xc:white", "-font", "DejaVu-Sans", "-fill", "black", "-pointsize", "72",
                "-annotate", "+30+130",
                "OFFICER FILES", scan,
            ])
        try #require(drawn.status == 0, "\(drawn.stderr)")
        let text = try await files.recognizeText(in: .local(scan))
        #expect(text.uppercased().contains("OFFICER"), "\(text)")

        let spoken = try await files.speak(
            text: "hello from the front door", to: URL(fileURLWithPath: work.file("hello.wav")))
        let wav = try Data(contentsOf: spoken)
        #expect(wav.starts(with: Data("RIFF".utf8)) && wav.count > 1000)
        // Never over an existing file without asking.
        do {
            _ = try await files.speak(text: "again", to: spoken)
            Issue.record("expected a refusal")
        } catch {
            #expect(error.category == .conflict, "\(error)")
        }

        // Kept for offline use: an offline front door (no network at all) still has it.
        _ = try server.root.write("Docs/plan.txt", "the plan")
        try await files.keepOffline(try files.location("officer:/Docs/plan.txt"))
        let offline = try self.files(offline: true, tokens: tokens)
        _ = try await offline.download(
            try offline.location("officer:/Docs/plan.txt"), to: URL(fileURLWithPath: work.file("plan.txt"))
        ).value
        #expect(try String(contentsOfFile: work.file("plan.txt"), encoding: .utf8) == "the plan")
        try await files.stopKeepingOffline(try files.location("officer:/Docs/plan.txt"))

        // A remote without the capability says so, in the one error type.
        do {
            _ = try await files.thumbnail(of: try files.location("st:bucket/a.jpg"))
            Issue.record("expected a refusal")
        } catch {
            #expect(error.category == .refused && error.message.contains("thumbnails"), "\(error)")
        }
    }
}

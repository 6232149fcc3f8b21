import FileModel
import Foundation
import TestSupport
import Testing

@testable import HTTP
@testable import Officer
@testable import Transfer

/// The Officer API client against the reference server: every call, and every error mapped.
@Suite struct OfficerClientTests {
    let server: ReferenceServer
    let client: OfficerClient

    init() async throws {
        server = try await ReferenceServer.start()
        var client = OfficerClient(server: server.url + "/", http: .curl)
        client.token = try await client.signIn(email: server.email, password: server.password).token
        self.client = client
    }

    func path(_ text: String) throws -> RemotePath { try RemotePath(path: text) }

    @Test func identifiesTheServerAndTheUser() async throws {
        let info = try await client.serverInfo()
        #expect(info.server?.name == "officer" && info.features?.contains("tus") == true)
        #expect(try await client.me().email == server.email)
        #expect(client.server == server.url)
        #expect(!client.isInsecureRemote)
        #expect(OfficerClient(server: "http://files.example.org", http: .curl).isInsecureRemote)
        #expect(!OfficerClient(server: "https://files.example.org", http: .curl).isInsecureRemote)
    }

    @Test func signInErrors() async throws {
        await #expect(throws: OfficerError.invalidCredentials(email: server.email)) {
            try await OfficerClient(server: server.url, http: .curl).signIn(email: server.email, password: "wrong")
        }
        await #expect {
            try await OfficerClient(server: server.url, token: "not.a.token", http: .curl).me()
        } throws: { error in
            guard case OfficerError.notSignedIn(_, let reason) = error else { return false }
            return reason.contains("no longer accepts")
        }
        await #expect {
            try await OfficerClient(server: server.url, http: .curl).list(try path("/"))
        } throws: { error in
            "\(error)".contains("not logged in")
        }
    }

    @Test func recognisesAServerThatIsNotOfficer() async throws {
        let probe = try await startRedirectProbe()
        await #expect {
            try await OfficerClient(server: probe.url, http: .curl).serverInfo()
        } throws: { error in
            guard case OfficerError.notOfficerServer = error else { return false }
            return true
        }
    }

    @Test func managesFilesAndFolders() async throws {
        try await client.makeDirectory(path("/docs/deep/er"), parents: true)
        #expect(FileManager.default.fileExists(atPath: server.root.file("docs/deep/er")))
        try await client.write("hello ü", to: path("/docs/a b+c.txt"), mtime: 1_600_000_000)
        let entry = try await client.stat(path("/docs/a b+c.txt"))
        #expect(entry.size == 8 && entry.mtime == 1_600_000_000 && entry.type == .file)
        #expect(try await client.read(path("/docs/a b+c.txt")).content == "hello ü")
        let listing = try await client.list(path("/docs"))
        #expect(listing.entries.map(\.name) == ["deep", "a b+c.txt"])

        try await client.rename(path("/docs/a b+c.txt"), to: "renamed.txt")
        try await client.copy(path("/docs/renamed.txt"), to: path("/copy.txt"))
        try await client.move(path("/docs/deep"), to: path("/moved"))
        #expect(try String(contentsOfFile: server.root.file("copy.txt"), encoding: .utf8) == "hello ü")
        #expect(FileManager.default.fileExists(atPath: server.root.file("moved/er")))
        #expect(try await client.statIfExists(path("/docs/deep")) == nil)

        await #expect {
            try await client.copy(path("/copy.txt"), to: path("/docs/renamed.txt"))
        } throws: { error in
            guard case OfficerError.conflict = error else { return false }
            return true
        }
        try await client.copy(path("/copy.txt"), to: path("/docs/renamed.txt"), overwrite: true)

        await #expect {
            try await client.remove(path("/moved"))
        } throws: { error in
            guard case OfficerError.conflict(_, let message, _) = error else { return false }
            return message.contains("not empty")
        }
        #expect(try await client.remove(path("/moved"), recursive: true) == 2)
        #expect(!FileManager.default.fileExists(atPath: server.root.file("moved")))

        let found = try await client.search("RENAMED", in: path("/"))
        #expect(found.results.map(\.path) == ["/docs/renamed.txt"])
        let sum = try await client.sha256(path("/copy.txt"))
        #expect(sum.sha256 == (try ProcessRunner.sha256(of: server.root.file("copy.txt"))))
        let touched = try await client.setModificationTime(path("/copy.txt"), to: 1_234_567_890.5)
        #expect(touched.mtime == 1_234_567_890.5)
    }

    @Test func mapsNotFoundAndServerSideRefusals() async throws {
        await #expect {
            try await client.stat(path("/nope"))
        } throws: { error in
            guard case OfficerError.notFound(_, let message, _) = error else { return false }
            return message.contains("/nope")
        }
        // The client refuses '..' itself; the server refuses it too when a request gets through anyway.
        #expect(throws: RemotePathError.self) { try path("/../etc/passwd") }
        var request = HTTPRequest(url: client.url("/api/file-browser/read", query: [("path", "/../etc/passwd")]))
        request.credential = client.credential
        await #expect {
            try await client.send(request)
        } throws: { error in
            guard case OfficerError.badRequest(_, let message, _) = error else { return false }
            return message.contains("climbs above")
        }
        try FileManager.default.createSymbolicLink(atPath: server.root.file("out"), withDestinationPath: "/etc")
        await #expect {
            try await client.list(path("/out"))
        } throws: { error in
            guard case OfficerError.forbidden = error else { return false }
            return true
        }
    }

    @Test func walksABigTreeInPages() async throws {
        for folder in 0..<5 {
            for file in 0..<60 { try server.root.write("t/\(folder)/f\(file)", "x") }
        }
        var paths: [String] = []
        for try await entry in client.walk(try path("/t"), pageSize: 37) { paths.append(entry.path) }
        #expect(paths.count == 5 + 300)
        #expect(Set(paths).count == paths.count)
        #expect(paths.first == "/t/0" && paths.contains("/t/4/f59"))
    }

    @Test func expiredTokensAskForANewLogin() async throws {
        let shortLived = try await ReferenceServer.start(arguments: ["--token-ttl", "60", "--test-clock"])
        var client = OfficerClient(server: shortLived.url, http: .curl)
        client.token = try await client.signIn(email: shortLived.email, password: shortLived.password).token
        try await shortLived.advanceClock(by: 61)
        await #expect {
            try await client.me()
        } throws: { error in
            guard case OfficerError.notSignedIn(_, let reason) = error else { return false }
            return reason.contains("expired")
        }
    }
}

import Foundation
import TestSupport
import Testing

/// `attach`: chat attachments through the seed's `POST /api/upload`, their ids printed, images prepared as a
/// chat sends them, nothing stored when a file cannot go.
@Suite struct AttachCommandTests {
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "attach-work")

    func image(_ name: String, width: Int, height: Int) throws -> String {
        let path = work.file(name)
        let made = try ProcessRunner.run("/usr/bin/vips", ["gaussnoise", path, String(width), String(height)])
        #expect(made.status == 0, "\(made.stderr)")
        return path
    }

    func header(_ field: String, _ path: String) throws -> String {
        try ProcessRunner.run("/usr/bin/vipsheader", ["-f", field, path]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// The attachments the server holds: id → its stored file.
    func stored(_ server: ReferenceServer) throws -> [String: String] {
        let folder = server.state.file("attachments")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return Dictionary(
            uniqueKeysWithValues: names.filter { !$0.hasSuffix(".json") && !$0.hasPrefix(".") }.map {
                ($0, folder + "/" + $0)
            })
    }

    @Test(arguments: [["--api", "seed"], []])
    func sendsFilesAndPrintsTheirIdsWithImagesPreparedAsAChatSendsThem(_ mode: [String]) async throws {
        let server = try await ReferenceServer.start(arguments: mode)
        #expect(try await cli.login(server).status == 0)
        let photo = try image("photo.jpg", width: 4000, height: 3000)
        let screenshot = try image("screen.png", width: 3000, height: 1000)
        let notes = try work.write("notes.txt", "meeting at nine\n")
        let result = try await cli.run(["attach", photo, screenshot, notes])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true)
        }
        try #require(lines.count == 3, "\(result.stdout)")
        #expect(lines.map { String($0[1]) } == ["photo.jpg", "screen.png", "notes.txt"])
        let ids = lines.map { String($0[0]) }
        #expect(ids.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) }, "\(ids)")
        let held = try stored(server)
        #expect(Set(held.keys) == Set(ids))
        // The photo: 2048 px JPEG; the screenshot: still PNG, 2048 px; the text: byte for byte.
        let storedPhoto = try #require(held[ids[0]])
        #expect(try header("width", storedPhoto) == "2048")
        #expect(try header("vips-loader", storedPhoto) == "jpegload")
        let storedScreen = try #require(held[ids[1]])
        #expect(try header("width", storedScreen) == "2048")
        #expect(try header("vips-loader", storedScreen) == "pngload")
        #expect(try ProcessRunner.sha256(of: held[ids[2]]!) == (try ProcessRunner.sha256(of: notes)))
        // The prepared copies are gone.
        let prepared = cli.home.path + "/.cache/officer-files/prepared"
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: prepared)) ?? []).isEmpty)

        let json = try await cli.run(["--json", "attach", "--as-is", photo])
        #expect(json.status == 0, "\(json.stderr)")
        let record = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(record["name"] as? String == "photo.jpg" && record["mime"] as? String == "image/jpeg")
        #expect(record["path"] as? String == photo)
        let sentAsIs = try #require(try stored(server)[record["id"] as? String ?? ""])
        #expect(try ProcessRunner.sha256(of: sentAsIs) == (try ProcessRunner.sha256(of: photo)))
        #expect(
            (record["size"] as? Int).map(Int64.init)
                == (try FileManager.default.attributesOfItem(atPath: photo)[.size] as? Int).map(Int64.init))
    }

    @Test func aDamagedImageFailsTheCommandWithNothingStored() async throws {
        let server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
        let good = try image("good.jpg", width: 300, height: 200)
        let damaged = try work.write("damaged.jpg", Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 7, count: 500))
        let result = try await cli.run(["attach", good, damaged])
        #expect(result.status != 0 && result.stdout.isEmpty, "\(result.stdout)")
        #expect(
            result.stderr.contains("damaged.jpg") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)"
        )
        #expect(try stored(server).isEmpty)
        let missing = try await cli.run(["attach", work.file("nowhere.png")])
        #expect(missing.status == 8 && missing.stderr.contains("nowhere.png"), "\(missing.stderr)")
    }

    @Test func aServerWithoutAttachmentsSaysSoInOneLine() async throws {
        let server = try await ReferenceServer.start(arguments: ["--api", "seed", "--no-attachments"])
        #expect(try await cli.login(server).status == 0)
        let notes = try work.write("notes.txt", "x")
        let result = try await cli.run(["attach", notes])
        #expect(result.status == 9, "\(result.stderr)")
        #expect(result.stderr.contains("chat attachments") && result.stderr.split(separator: "\n").count == 1)
        // The server's address is the login's own (its port may have "404" in it): no API path or status besides.
        let besidesAddress = result.stderr.replacingOccurrences(of: server.url, with: "")
        #expect(!besidesAddress.contains("/api/") && !besidesAddress.contains("404"), "\(result.stderr)")
        // The file as typed: a relative path stays relative (it was made absolute).
        _ = try work.write("sub/memo.txt", "y")
        let relative = try await cli.run(["attach", "sub/../sub/memo.txt"], in: work.path)
        #expect(relative.stderr.hasPrefix("officer-files: sub/../sub/memo.txt: "), "\(relative.stderr)")
    }
}

/// A refused token is told as the server's (exit 3, the sign-in command that settles it), not as a file's.
@Suite struct AttachSignInTests {
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "attach-token")

    @Test func anExpiredTokenSaysHowToSignInAgain() async throws {
        let server = try await ReferenceServer.start(arguments: ["--token-ttl", "60", "--test-clock"])
        #expect(try await cli.login(server).status == 0)
        try await server.advanceClock(by: 120)
        let notes = try work.write("notes.txt", "x")
        let result = try await cli.run(["attach", notes])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(
            result.stderr.contains("log in again with: officer-files login --server \(server.url)")
                && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
}

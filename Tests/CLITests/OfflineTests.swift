import Foundation
import HTTP
import Officer
import TestSupport
import Testing
import Transfer

/// `--offline` means no connection, whichever command: enforced where every request passes (the HTTP client),
/// checked here against a listener that records anything that reaches it.
@Suite struct OfflineTests {
    @Test func noCommandReachesTheServerOffline() async throws {
        let hostile = try await startHostileServer(mode: "html-error")
        let other = try await HTTPClient.curl.send(HTTPRequest(url: hostile.url + "/_hostile/other"))
        let listener = try #require((try JSONSerialization.jsonObject(with: other.body) as? [String: String])?["url"])
        let work = TemporaryDirectory(prefix: "offline")
        try work.write("a.txt", "alpha\n")
        try work.write("folder/b.txt", "beta\n")
        let cli = CLIRunner(environment: ["OFFICER_SERVER": listener, "OFFICER_TOKEN": "offline.token-1"])
        let commands: [[String]] = [
            ["ls", "officer:/"], ["ls", "-R", "officer:/"], ["stat", "officer:/a.txt"], ["whoami"], ["search", "x"],
            ["mkdir", "officer:/OfflineDir"], ["rm", "officer:/a.txt"], ["mv", "officer:/a.txt", "officer:/b.txt"],
            ["cp", "officer:/a.txt", "officer:/c.txt"], ["put", work.file("a.txt"), "officer:/"],
            ["get", "officer:/a.txt", work.file("got")],
            ["cat", "officer:/a.txt"], ["info", "officer:/a.txt"], ["sync", work.file("folder"), "officer:/f"],
            ["copy", "officer:/f", work.file("pulled")], ["ocr", "officer:/scan.png"], ["tts", "--text", "hello"],
            ["archive", "ls", "officer:/a.zip"],
        ]
        for arguments in commands {
            let result = try await cli.run(["--offline"] + arguments)
            #expect(result.status != 0, "\(arguments): \(result.stdout)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
        // Nothing to do is no failure, and still no request.
        for arguments in [["transfers", "resume"], ["logout"]] {
            #expect(try await cli.run(["--offline"] + arguments).status == 0)
        }
        let login = try await cli.run(
            ["--offline", "login", "--server", listener, "--email", "a@b.c", "--password-stdin"], stdin: "pw\n")
        #expect(login.status != 0)
        let seen = try await HTTPClient.curl.send(HTTPRequest(url: hostile.url + "/_hostile/recorded"))
        #expect(String(decoding: seen.body, as: UTF8.self) == "[]", "requests reached the server offline")
    }
}

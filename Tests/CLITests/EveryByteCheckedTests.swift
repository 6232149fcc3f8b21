import Foundation
import TestSupport
import Testing

/// Bytes become visible — written out by `cat` as done, admitted to the cache, served from it as verified — only
/// once they matched the strongest validator the server offers, tried through a proxy that flips one byte on the
/// way down (`scripts/fault-proxy --corrupt-at`), against the full reference server and a seed-only one.
@Suite struct EveryByteCheckedTests {
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "checked")

    /// Three megabytes of numbered lines: text, so the captured output compares as a string.
    static let lines = (0..<150_000).map { String(format: "line %07d of the file\n", $0) }.joined()

    /// A full server holding `c.txt`, and this runner logged in to it through a proxy that damages one byte
    /// (the first connection's byte `corruptAt`, once).
    func damagingProxy(_ server: ReferenceServer, corruptAt: Int = 1_000_000) async throws -> BackgroundService {
        _ = try server.root.write("c.txt", Self.lines)
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)", ["--corrupt-at", String(corruptAt), "--direction", "down"])
        #expect(try await cli.login(server, url: proxy.url).status == 0)
        return proxy
    }

    /// `cat` of damaged bytes ends non-zero with one line saying so, and the damaged copy never enters the cache:
    /// the next `get` fetches the server's bytes (it exited 0, cached them, and `get` then saved them "from the
    /// cache, sha256 verified").
    @Test func aDamagedCatEndsNonZeroAndIsNeverCached() async throws {
        let server = try await ReferenceServer.start()
        let proxy = try await damagingProxy(server)
        defer { proxy.stop() }
        let cat = try await cli.run(["cat", "officer:/c.txt"])
        #expect(cat.status != 0, "cat of damaged bytes exited 0")
        let errorLines = cat.stderr.split(separator: "\n")
        #expect(
            errorLines.count == 1 && cat.stderr.contains("officer:/c.txt") && cat.stderr.contains("damaged"),
            "\(cat.stderr)")
        let target = work.file("got.txt")
        let got = try await cli.run(["get", "officer:/c.txt", target])
        #expect(got.status == 0 && !got.stderr.contains("from the cache"), "\(got.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == Self.lines)
        let again = try await cli.run(["cat", "officer:/c.txt"])
        #expect(again.status == 0 && again.stdout == Self.lines, "\(again.stderr)")
    }

    /// `cache pin` of damaged bytes fetches the file once more: the pinned copy is the server's, and offline it is
    /// saved as verified.
    @Test func aDamagedPinIsFetchedAgain() async throws {
        let server = try await ReferenceServer.start()
        let proxy = try await damagingProxy(server)
        defer { proxy.stop() }
        let pin = try await cli.run(["cache", "pin", "officer:/c.txt"])
        #expect(pin.status == 0 && pin.stderr.contains("damaged on the way"), "\(pin.stdout)\(pin.stderr)")
        let target = work.file("pinned.txt")
        let got = try await cli.run(["--offline", "get", "officer:/c.txt", target])
        #expect(got.status == 0 && got.stderr.contains("sha256 verified"), "\(got.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == Self.lines)
    }

    /// A server without checksums cannot tell damaged bytes from whole ones: what `cat` cached is served as checked
    /// by size only, never as "sha256 verified", in words and in JSON.
    @Test func aCopyCachedFromASeedServerIsNeverCalledVerified() async throws {
        let server = try await ReferenceServer.start(arguments: ["--api", "seed"], inMemory: true)
        _ = try server.root.write("s.txt", "seed bytes\n")
        _ = try server.root.write("pulled/t.txt", "pulled\n")
        #expect(try await cli.login(server).status == 0)
        // Fetched from the network, by `get` and by a sync's pull: said to be checked by size only too.
        let fetched = try await cli.run(["--no-cache", "get", "officer:/s.txt", work.file("fetched.txt")])
        #expect(
            fetched.status == 0 && fetched.stderr.contains(", checked by size only (the server offers no checksum)"),
            "\(fetched.stderr)")
        let pulled = try await cli.run(["sync", "officer:/pulled", work.file("pulled")])
        #expect(
            pulled.status == 0 && pulled.stderr.contains("1 file checked by size only (the server offers no checksum)"),
            "\(pulled.stdout)\(pulled.stderr)")
        #expect(try await cli.run(["cat", "officer:/s.txt"]).stdout == "seed bytes\n")
        let got = try await cli.run(["get", "officer:/s.txt", work.file("s.txt")])
        #expect(got.status == 0, "\(got.stderr)")
        #expect(
            got.stderr.contains("from the cache") && got.stderr.contains("checked by size only")
                && !got.stderr.contains("verified"), "\(got.stderr)")
        let json = try await cli.run(["--json", "get", "--force", "officer:/s.txt", work.file("s.txt")])
        #expect(json.stdout.contains("\"checked\":\"size\"") && !json.stdout.contains("sha256"), "\(json.stdout)")
    }

    /// A copy cached damaged where nothing could check it (a seed-only server behind a damaging link) is found by
    /// `cache verify` once the server offers checksums: compared with the server's SHA-256, dropped, non-zero (it
    /// said "consistent" and kept serving it).
    @Test func cacheVerifyComparesWithTheServer() async throws {
        let root = TemporaryDirectory(prefix: "officer-root")
        let state = TemporaryDirectory(prefix: "officer-state")
        let port = try NginxServer.freePort()
        var seed: ReferenceServer? = try await ReferenceServer.start(
            root: root, state: state, port: port, arguments: ["--api", "seed"])
        let proxy = try await damagingProxy(seed!)
        defer { proxy.stop() }
        _ = try root.write("whole.txt", "whole\n")
        #expect(try await cli.run(["cat", "officer:/whole.txt"]).status == 0)
        let cat = try await cli.run(["cat", "officer:/c.txt"])
        #expect(cat.status == 0 && cat.stdout != Self.lines, "a seed server cannot tell")
        let unchecked = try await cli.run(["cache", "verify"])
        #expect(
            unchecked.status == 0 && unchecked.stdout.contains("the server offers no checksums"), "\(unchecked.stdout)")
        seed!.service.kill()
        seed = nil
        let full = try await ReferenceServer.start(root: root, state: state, port: port)
        defer { full.service.kill() }
        let verify = try await cli.run(["cache", "verify"])
        #expect(verify.status != 0, "\(verify.stdout)")
        #expect(
            verify.stderr.contains("officer:/c.txt: its bytes differ from the server's copy")
                && verify.stdout.contains("1 matched the server's SHA-256"), "\(verify.stdout)\(verify.stderr)")
        let again = try await cli.run(["cat", "officer:/c.txt"])
        #expect(again.status == 0 && again.stdout == Self.lines)
    }
}

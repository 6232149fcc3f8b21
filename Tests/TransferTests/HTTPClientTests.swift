import FileModel
import Foundation
import TestSupport
import Testing

@testable import HTTP
@testable import Officer
@testable import Transfer

/// The engine suite: each engine (libcurl and URLSession) against real HTTP servers: the reference server, the fault proxy and the redirect probe.
@Suite struct HTTPClientTests {
    let server: ReferenceServer
    let token: String

    init() async throws {
        server = try await ReferenceServer.start()
        token = try await OfficerClient(server: server.url, http: .curl).signIn(
            email: server.email, password: server.password
        ).token
    }

    func rawURL(_ base: String, _ path: String) -> String {
        base + "/api/file-browser/raw?" + URLQuery.encode([("path", path), ("root", "home")])
    }

    @Test(arguments: TestEngine.allCases) func streamsABodyToAFileAndReadsRanges(_ engine: TestEngine) async throws {
        let bytes = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try server.root.write("big.bin", bytes)
        let local = TemporaryDirectory()
        let client = engine.client()
        let whole = try await client.send(
            HTTPRequest(
                url: rawURL(server.url, "/big.bin"), sink: .file(path: local.file("out"), offset: nil),
                credential: .forTests(token, rawURL(server.url, "/big.bin"))))
        #expect(whole.status == 200 && whole.bytesWritten == 3_000_000 && whole.body.isEmpty)
        #expect(
            try ProcessRunner.sha256(of: local.file("out"))
                == (try ProcessRunner.sha256(of: server.root.file("big.bin"))))
        #expect(whole.headers["etag"] != nil && whole.headers["Accept-Ranges"] == "bytes")

        var headers = HTTPHeaders()
        headers.add("Range", "bytes=1000-1999")
        let part = try await client.send(
            HTTPRequest(
                url: rawURL(server.url, "/big.bin"), headers: headers,
                credential: .forTests(token, rawURL(server.url, "/big.bin"))))
        #expect(part.status == 206 && part.body == bytes[1000..<2000])
        #expect(part.headers["Content-Range"] == "bytes 1000-1999/3000000")
    }

    /// A request whose task is cancelled as it begins (a Ctrl-C just then) ends with `CancellationError` on every
    /// engine, with or without a body (on URLSession the task is tracked before anything can cancel it, and a wait
    /// attached after its cancel ends at once: a task's end that found no state was never heard of).
    @Test(.timeLimit(.minutes(30)), arguments: TestEngine.allCases)
    func aRequestCancelledAsItBeginsEnds(_ engine: TestEngine) async throws {
        let local = TemporaryDirectory()
        let body = try local.write("body.bin", Data(repeating: 7, count: 3 << 20))
        let url = server.url + "/api/file-browser/tus"
        for withBody in [false, true] {
            let attempt = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                let request =
                    withBody
                    ? HTTPRequest(
                        method: "PUT", url: url,
                        body: .file(path: body, offset: 0, length: 3 << 20, contentType: "application/octet-stream"))
                    : HTTPRequest(url: url)
                return try await engine.engine.perform(
                    request, configuration: HTTPClientConfiguration(), onProgress: nil)
            }
            await #expect(throws: CancellationError.self) { try await attempt.value }
        }
    }

    @Test(arguments: TestEngine.allCases) func anErrorBodyNeverLandsInTheFileSink(_ engine: TestEngine) async throws {
        let local = TemporaryDirectory()
        let response = try await engine.client().send(
            HTTPRequest(
                url: rawURL(server.url, "/missing"), sink: .file(path: local.file("out"), offset: nil),
                credential: .forTests(token, rawURL(server.url, "/missing"))))
        #expect(response.status == 404 && response.bytesWritten == 0)
        #expect(String(decoding: response.body, as: UTF8.self).contains("not_found"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: local.file("out"))).isEmpty)
    }

    @Test(arguments: TestEngine.allCases) func streamsAFileBodyUp(_ engine: TestEngine) async throws {
        let local = TemporaryDirectory()
        let payload = Data((0..<700_000).map { UInt8(truncatingIfNeeded: $0 / 7) })
        let path = try local.write("up.bin", payload)
        var request = HTTPRequest(
            method: "POST", url: server.url + "/api/file-browser/tus",
            body: .file(path: path, offset: 100_000, length: 500_000, contentType: "application/offset+octet-stream"),
            credential: .forTests(token, server.url + "/api/file-browser/tus"))
        request.headers.add("Tus-Resumable", "1.0.0")
        request.headers.add("Upload-Length", "500000")
        request.headers.add("Upload-Metadata", "filename " + Data("slice.bin".utf8).base64EncodedString())
        let response = try await engine.client().send(request)
        #expect(response.status == 201 && response.headers["Upload-Offset"] == "500000")
        let stored = try Data(contentsOf: URL(fileURLWithPath: server.root.file("slice.bin")))
        #expect(stored == payload[100_000..<600_000])
    }

    @Test(arguments: TestEngine.allCases) func retriesIdempotentRequestsOn503AndHonoursRetryAfter(_ engine: TestEngine)
        async throws
    {
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)",
            ["--fail-request", "1", "--status", "503", "--retry-after", "1"])
        let started = Date()
        let retries = RetryLog()
        let response = try await engine.client().send(
            HTTPRequest(url: proxy.url + "/api/server-settings/plugins"),
            onRetry: { attempt, delay, _ in retries.add(attempt, delay) })
        #expect(response.status == 200 && response.attempts == 2)
        #expect(retries.entries.count == 1 && retries.entries[0].1 == 1)
        #expect(Date().timeIntervalSince(started) >= 1)
    }

    @Test(arguments: TestEngine.allCases) func doesNotRetryANonIdempotentRequest(_ engine: TestEngine) async throws {
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)", ["--fail-request", "1", "--status", "503"])
        let response = try await engine.client().send(
            HTTPRequest(
                method: "POST", url: proxy.url + "/api/file-browser/mkdir",
                body: .data(Data(#"{"path":"/once"}"#.utf8), contentType: "application/json"),
                credential: .forTests(token, proxy.url + "/api/file-browser/mkdir")))
        #expect(response.status == 503 && response.attempts == 1)
        #expect(!FileManager.default.fileExists(atPath: server.root.file("once")))
    }

    @Test(arguments: TestEngine.allCases) func retriesAfterAConnectionReset(_ engine: TestEngine) async throws {
        try server.root.write("reset.bin", Data(count: 400_000))
        // Every connection is cut after 100 kB down: all attempts fail, each with a network error.
        let proxy = try await startFaultProxy(target: "127.0.0.1:\(server.service.port)", ["--reset-after", "100000"])
        var configuration = HTTPClientConfiguration()
        configuration.retry.baseDelay = 0.05
        let log = RetryLog()
        await #expect {
            try await engine.client(configuration).send(
                HTTPRequest(
                    url: rawURL(proxy.url, "/reset.bin"), credential: .forTests(token, rawURL(proxy.url, "/reset.bin"))),
                onRetry: { attempt, delay, _ in log.add(attempt, delay) })
        } throws: { error in
            guard case HTTPError.transport(_, let code, _) = error else { return false }
            return [18, 56].contains(code)
        }
        #expect(log.entries.map(\.0) == [2, 3, 4])
    }

    @Test(arguments: TestEngine.allCases) func abortsAStalledTransfer(_ engine: TestEngine) async throws {
        try server.root.write("stall.bin", Data(count: 200_000))
        let proxy = try await startFaultProxy(
            target: "127.0.0.1:\(server.service.port)", ["--stall-after", "50000", "--stall-seconds", "900"])
        var configuration = HTTPClientConfiguration()
        configuration.stallTimeout = 1
        configuration.retry = .none
        let started = Date()
        await #expect {
            try await engine.client(configuration).send(
                HTTPRequest(
                    url: rawURL(proxy.url, "/stall.bin"), credential: .forTests(token, rawURL(proxy.url, "/stall.bin")))
            )
        } throws: { error in
            guard case HTTPError.transport(_, let code, _) = error else { return false }
            return code == 28
        }
        // The stall lasts a quarter of an hour; the stall timeout ends the transfer long before it, however busy the
        // machine (a loaded run took 63 s to start and end the request: a one-minute stall was too short a yardstick).
        #expect(Date().timeIntervalSince(started) < 600)
    }

    @Test(arguments: TestEngine.allCases) func cancellationAbortsTheTransferPromptly(_ engine: TestEngine) async throws
    {
        // Timed: not while a heavy test (hundreds of megabytes written and fsynced) loads the machine.
        try await HeavyWork.shared.run { try await cancellationAlone(engine) }
    }

    func cancellationAlone(_ engine: TestEngine) async throws {
        try server.root.write("slow.bin", Data(count: 2_000_000))
        let proxy = try await startFaultProxy(target: "127.0.0.1:\(server.service.port)", ["--throttle", "10000"])
        let local = TemporaryDirectory()
        let arriving = LockedValue(false)
        let task = Task {
            try await engine.client().send(
                HTTPRequest(
                    url: rawURL(proxy.url, "/slow.bin"), sink: .file(path: local.file("slow"), offset: nil),
                    credential: .forTests(token, rawURL(proxy.url, "/slow.bin"))),
                onProgress: { progress in if progress.received > 0 { arriving.withLock { $0 = true } } })
        }
        // Cancelled once bytes are arriving (a download task keeps them in the session's file until the end): the
        // transfer is certainly under way (on the shared pool, which a loaded machine's other tests may hold a long
        // while: waited for, not timed).
        #expect(await Eventually.wait(timeout: 600) { arriving.withLock { $0 } })
        let started = Date()
        task.cancel()
        let result = await task.result
        // Uncancelled, the throttled transfer takes over three minutes; a cancelled one ends long before, even on a
        // busy machine.
        #expect(Date().timeIntervalSince(started) < 100)
        guard case .failure(let error) = result, case HTTPError.cancelled = error else {
            Issue.record("expected cancellation, got \(result)")
            return
        }
    }

    @Test(arguments: TestEngine.allCases) func reportsProgressAsEvents(_ engine: TestEngine) async throws {
        try server.root.write("p.bin", Data(count: 1_500_000))
        var sawProgress = false
        var completed: HTTPResponse?
        for try await event in engine.client().events(
            for: HTTPRequest(
                url: rawURL(server.url, "/p.bin"), credential: .forTests(token, rawURL(server.url, "/p.bin"))))
        {
            switch event {
            case .progress(let progress):
                #expect(progress.expectedReceive == nil || progress.expectedReceive == 1_500_000)
                sawProgress = sawProgress || progress.received > 0
            case .completed(let response): completed = response
            case .retrying: Issue.record("no retry expected")
            }
        }
        #expect(sawProgress && completed?.body.count == 1_500_000)
    }

    @Test(arguments: TestEngine.allCases) func authorizationStaysWithItsHost(_ engine: TestEngine) async throws {
        let probe = try await startRedirectProbe()
        let sameHost = probe.url + "/echo-auth"
        // Same port, other host name: curl must treat it as another host.
        let otherHost = "http://localhost:\(probe.port)/echo-auth"
        let client = engine.client()
        let kept = try await client.send(
            HTTPRequest(
                url: probe.url + "/redirect?to=" + URLQuery.escape(sameHost), credential: .forTests("sekrit", probe.url)
            ))
        #expect(String(decoding: kept.body, as: UTF8.self).contains("Bearer sekrit"))
        // A download may be handed to another origin, without the token; an API call may not be.
        let dropped = try await client.send(
            HTTPRequest(
                url: probe.url + "/redirect?to=" + URLQuery.escape(otherHost),
                credential: .forTests("sekrit", probe.url),
                redirects: .anyOrigin))
        #expect(dropped.status == 200 && dropped.effectiveURL.hasPrefix("http://localhost"))
        #expect(String(decoding: dropped.body, as: UTF8.self).contains("\"authorization\": null"))
        await #expect {
            try await client.send(
                HTTPRequest(
                    url: probe.url + "/redirect?to=" + URLQuery.escape(otherHost),
                    credential: .forTests("sekrit", probe.url)))
        } throws: { error in
            guard case HTTPError.redirectRefused(_, let location) = error else { return false }
            return location.hasPrefix("http://localhost")
        }
        // A URL on another origin never gets the token, not even as the first request.
        await #expect {
            try await client.send(HTTPRequest(url: otherHost, credential: .forTests("sekrit", probe.url)))
        } throws: { error in
            guard case HTTPError.credentialScope = error else { return false }
            return true
        }
    }

    @Test(arguments: TestEngine.allCases) func followsOnlyHTTPAndHTTPS(_ engine: TestEngine) async throws {
        let probe = try await startRedirectProbe()
        await #expect {
            try await engine.client().send(
                HTTPRequest(
                    url: probe.url + "/redirect?to=" + URLQuery.escape("file:///etc/passwd"), redirects: .anyOrigin))
        } throws: { error in
            guard case HTTPError.redirectRefused(_, let location) = error else { return false }
            return location.hasPrefix("file:")
        }
        await #expect(throws: HTTPError.unsupportedURL("ftp://127.0.0.1/x")) {
            try await engine.client().send(HTTPRequest(url: "ftp://127.0.0.1/x"))
        }
    }

    @Test(arguments: TestEngine.allCases) func verboseLogNeverContainsTheToken(_ engine: TestEngine) async throws {
        let log = LineLog()
        var configuration = HTTPClientConfiguration()
        configuration.log = { log.add($0) }
        _ = try await engine.client(configuration).send(
            HTTPRequest(
                url: server.url + "/api/auth/me?token=" + token,
                credential: .forTests(token, server.url + "/api/auth/me?token=" + token)))
        #expect(!log.lines.isEmpty)
        #expect(!log.lines.joined().contains(token))
        #expect(log.lines.joined().contains("[REDACTED]"))
    }
}

final class RetryLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [(Int, Double)] = []
    func add(_ attempt: Int, _ delay: Double) { lock.withLock { stored.append((attempt, delay)) } }
    var entries: [(Int, Double)] { lock.withLock { stored } }
}

final class LineLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func add(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
}

/// TLS against a real https nginx with a self-signed certificate.
@Suite struct TLSTests {
    @Test(arguments: TestEngine.allCases) func verifiesCertificatesByDefault(_ engine: TestEngine) async throws {
        let nginx = try await NginxServer.start(tls: true)
        try nginx.root.write("hello.txt", "over tls\n")
        await #expect {
            try await engine.client().send(HTTPRequest(url: nginx.url + "/hello.txt"))
        } throws: { error in
            guard case HTTPError.transport(_, let code, let message) = error else { return false }
            // FoundationNetworking reports a certificate it does not trust without a code of its own.
            return code == 60 || (engine == .urlSession && message.contains("certificate"))
        }
        var trusting = HTTPClientConfiguration()
        trusting.caCertificatePath = nginx.certificate
        var insecure = HTTPClientConfiguration()
        insecure.insecure = true
        #if canImport(FoundationNetworking)
            if engine == .urlSession {
                // Its TLS settings are the process's, not a request's: refused before anything is sent.
                for configuration in [trusting, insecure] {
                    await #expect {
                        try await engine.client(configuration).send(HTTPRequest(url: nginx.url + "/hello.txt"))
                    } throws: { error in
                        guard case HTTPError.notAvailable = error else { return false }
                        return true
                    }
                }
                return
            }
        #endif
        let trusted = try await engine.client(trusting).send(HTTPRequest(url: nginx.url + "/hello.txt"))
        #expect(trusted.status == 200 && String(decoding: trusted.body, as: UTF8.self) == "over tls\n")
        #expect(try await engine.client(insecure).send(HTTPRequest(url: nginx.url + "/hello.txt")).status == 200)
    }
}

/// A pinned key: the server's own is let through, another refused before the request goes (curl's
/// `CURLE_SSL_PINNEDPUBKEYNOTMATCH`); the URLSession engine refuses pinning outright (not written for it).
@Suite struct PinnedKeyTests {
    /// The `sha256//` pin of the PEM certificate at `path`.
    static func pin(of path: String) throws -> String {
        let script =
            "openssl x509 -in '\(path)' -pubkey -noout | openssl pkey -pubin -outform der"
            + " | openssl dgst -sha256 -binary | base64"
        let run = try ProcessRunner.run("/bin/sh", ["-c", script])
        #expect(run.status == 0, "\(run.stderr)")
        return "sha256//" + run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: TestEngine.allCases) func onlyThePinnedKeyIsTrusted(_ engine: TestEngine) async throws {
        let nginx = try await NginxServer.start(tls: true)
        try nginx.root.write("hello.txt", "pinned\n")
        let certificate = try #require(nginx.certificate)
        var pinned = HTTPClientConfiguration()
        pinned.caCertificatePath = certificate
        pinned.pinnedPublicKeys = [
            "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", try Self.pin(of: certificate),
        ]
        var other = pinned
        other.pinnedPublicKeys = ["sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="]
        if engine == .urlSession {
            var pinnedOnly = HTTPClientConfiguration()
            pinnedOnly.pinnedPublicKeys = pinned.pinnedPublicKeys
            await #expect {
                try await engine.client(pinnedOnly).send(HTTPRequest(url: nginx.url + "/hello.txt"))
            } throws: { error in
                guard case HTTPError.notAvailable(_, let what) = error else { return false }
                return what == "pinning a server's key"
            }
            return
        }
        let trusted = try await engine.client(pinned).send(HTTPRequest(url: nginx.url + "/hello.txt"))
        #expect(trusted.status == 200 && String(decoding: trusted.body, as: UTF8.self) == "pinned\n")
        await #expect {
            try await engine.client(other).send(HTTPRequest(url: nginx.url + "/hello.txt"))
        } throws: { error in
            guard case HTTPError.transport(_, let code, _) = error else { return false }
            return code == TransportCode.pinnedKeyMismatch && ErrorCategory.of(error) == .network
                && (error as? HTTPError)?.wording(subject: "hello.txt", server: "127.0.0.1").contains("pinned") == true
        }
    }
}

extension BearerCredential {
    /// A credential for `token` bound to `url`'s origin (tests only: a bad token is a test bug).
    static func forTests(_ token: String?, _ url: String) -> BearerCredential? {
        token.map { (try? BearerCredential(token: $0, issuedBy: url))! }
    }
}

import FileModel
import Foundation
import Officer
import TestSupport
import Testing

/// What an app catches from the front door: one error type, a `LocalizedError` whose message an app can show,
/// with its category, the location it concerns, the server's code and the layer's error filled in alike
/// whichever call failed. Only `import Officer`, as an app.
@Suite struct FrontDoorErrorTests {
    let server: ReferenceServer
    let work = TemporaryDirectory(prefix: "front-door-errors")

    init() async throws {
        server = try await ReferenceServer.start()
    }

    func signedIn() async throws -> OfficerFiles {
        var configuration = OfficerFiles.Configuration(server: server.url, tokens: MemoryTokenStore())
        configuration.http.engine = TestEngine.urlSession.engine
        configuration.journalPath = work.path + "/journal.sqlite"
        configuration.cacheDirectory = work.path + "/cache"
        let files = try OfficerFiles(configuration: configuration)
        try await files.signIn(email: server.email, password: server.password)
        return files
    }

    /// The error `body` throws, which must be the front door's one type.
    func failure(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async
        -> OfficerFilesError?
    {
        do {
            try await body()
            Issue.record("expected a failure", sourceLocation: sourceLocation)
            return nil
        } catch let error as OfficerFilesError {
            // What an app shows: the message, never "The operation could not be completed. (… error 2.)".
            #expect(error.localizedDescription == error.message, sourceLocation: sourceLocation)
            #expect(
                !error.message.contains("--"), "names a CLI option: \(error.message)", sourceLocation: sourceLocation)
            #expect(!error.message.contains("/api/"), "names an API: \(error.message)", sourceLocation: sourceLocation)
            return error
        } catch {
            Issue.record("not the front door's error: \(type(of: error)) \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    @Test func everyCallThrowsOneErrorWithItsCategoryLocationAndCode() async throws {
        let files = try await signedIn()
        _ = try server.root.write("Docs/a.txt", "a")
        let local = try work.write("a.txt", "other a")

        let missing = await failure { _ = try await files.stat(try files.location("officer:/Docs/nope.txt")) }
        #expect(
            missing?.category == .notFound && missing?.subject == "officer:/Docs/nope.txt",
            "\(String(describing: missing))")
        #expect(missing?.message == "officer:/Docs/nope.txt: no such file or folder")
        #expect(missing?.serverCode == "not_found", "the server's code, as it sent it")

        let existing = await failure {
            _ = try await files.upload(URL(fileURLWithPath: local), to: try files.location("officer:/Docs/a.txt")).value
        }
        #expect(existing?.category == .conflict && existing?.serverCode == "exists", "\(String(describing: existing))")
        #expect(existing?.subject == "officer:/Docs/a.txt")
        #expect(try String(contentsOfFile: server.root.file("Docs/a.txt"), encoding: .utf8) == "a", "nothing replaced")

        let notEmpty = await failure {
            _ = try await files.remove(try files.location("officer:/Docs"), recursive: false)
        }
        #expect(
            notEmpty?.category == .conflict && notEmpty?.serverCode == "not_empty"
                && notEmpty?.subject == "officer:/Docs")

        let badName = await failure {
            _ = try await files.makeFolder(try files.location("officer:/Docs/a\u{7}b"), parents: false)
        }
        #expect(badName?.category == .invalidInput && badName?.subject != nil, "\(String(describing: badName))")

        let overLocal = await failure {
            _ = try await files.download(try files.location("officer:/Docs/a.txt"), to: URL(fileURLWithPath: local))
                .value
        }
        #expect(overLocal?.category == .conflict && overLocal?.subject == local, "\(String(describing: overLocal))")
        #expect(try String(contentsOfFile: local, encoding: .utf8) == "other a")

        let noFile = await failure {
            _ = try await files.upload(
                URL(fileURLWithPath: work.file("nowhere.bin")), to: try files.location("officer:/Docs/")
            ).value
        }
        #expect(
            noFile?.category == .localFile && noFile?.subject == work.file("nowhere.bin"),
            "\(String(describing: noFile))")

        // A server action on a missing file names it once (it was three times: the action, the target, the read).
        let noAudio = await failure { _ = try await files.transcribe(try files.location("officer:/Voice/none.m4a")) }
        #expect(noAudio?.message == "officer:/Voice/none.m4a: no such file or folder", "\(String(describing: noAudio))")
        #expect(noAudio?.category == .notFound && noAudio?.subject == "officer:/Voice/none.m4a")

        let badPath = await failure { _ = try files.location("officer:/../x") }
        #expect(badPath?.category == .invalidInput)

        let wrongPassword = await failure {
            try await files.signIn(email: server.email, password: "not it")
        }
        #expect(wrongPassword?.category == .authentication, "\(String(describing: wrongPassword))")
        #expect(wrongPassword?.serverCode == "invalid_credentials", "\(String(describing: wrongPassword))")
        // The layer's own error stays reachable, for logs.
        #expect(wrongPassword.map { !$0.detail.isEmpty } ?? false)
    }

    @Test func aWalkFailsWithTheSameError() async throws {
        let files = try await signedIn()
        var thrown: (any Error)?
        do {
            for try await _ in files.walk(try files.location("officer:/no-such-folder")) {}
        } catch {
            thrown = error
        }
        let error = try #require(thrown as? OfficerFilesError, "\(String(describing: thrown))")
        #expect(error.category == .notFound && error.subject == "officer:/no-such-folder", "\(error)")
    }

    /// #56 item 7: an operation's `value` and a stream's loop fail with `OfficerFilesError` typed, so an app reads
    /// `category` with no cast, and the failure is reported as every other call reports it (its location named).
    @Test func operationsAndStreamsFailTyped() async throws {
        let files = try await signedIn()
        let missing = try files.location("officer:/no/such.bin")
        do {
            _ = try await files.download(missing, to: URL(fileURLWithPath: work.file("such.bin"))).value
            Issue.record("downloaded a file that is not there")
        } catch {
            let typed: OfficerFilesError = error
            #expect(typed.category == .notFound && typed.subject == "officer:/no/such.bin", "\(typed)")
        }
        do {
            for try await _ in files.pages(of: try files.location("officer:/no")) {}
            Issue.record("paged a folder that is not there")
        } catch {
            let typed: OfficerFilesError = error
            #expect(typed.category == .notFound, "\(typed)")
        }
        do {
            for try await _ in files.walk(try files.location("officer:/no")) {}
            Issue.record("walked a folder that is not there")
        } catch {
            #expect(error.category == .notFound, "\(error)")
        }
        let sync = files.sync(
            from: .local(work.file("absent-folder")), to: try files.location("officer:/x/"),
            options: SyncOptions(direction: .push))
        do {
            _ = try await sync.value
            Issue.record("synced a folder that is not there")
        } catch {
            #expect(error.category == .localFile, "\(error)")
        }
    }
}

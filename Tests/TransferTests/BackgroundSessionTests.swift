import FileModel
import Foundation
import TestSupport
import Testing

@testable import HTTP
@testable import Officer

/// The app's background session as the front door names it: one session per identifier in the process (the system
/// allows no other), requests of a front door that names it going through it, and the system's completion handler
/// called once its events are delivered.
@Suite struct BackgroundSessionTests {
    let work = TemporaryDirectory(prefix: "background-session")

    @Test func aNamedSessionIsOnePerProcessAndCarriesTheFrontDoorsRequests() async throws {
        let server = try await ReferenceServer.start()
        try server.root.write("photo.bin", Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }))
        var configuration = OfficerFiles.Configuration(server: server.url, tokens: MemoryTokenStore())
        configuration.journalPath = work.file("journal.sqlite")
        configuration.backgroundSessionIdentifier = "app.officer.transfers"
        #expect(configuration.backgroundSessionIdentifier == "app.officer.transfers")
        var again = OfficerFiles.Configuration(server: server.url, tokens: MemoryTokenStore())
        again.backgroundSessionIdentifier = "app.officer.transfers"
        #expect((configuration.http.engine as? URLSessionEngine) === (again.http.engine as? URLSessionEngine))
        again.backgroundSessionIdentifier = nil
        #expect(again.backgroundSessionIdentifier == nil)

        let files = try OfficerFiles(configuration: configuration)
        try await files.signIn(email: server.email, password: server.password)
        let local = URL(fileURLWithPath: work.file("photo.bin"))
        _ = try await files.download(try files.location("officer:/photo.bin"), to: local).value
        #expect(
            try ProcessRunner.sha256(of: local.path) == (try ProcessRunner.sha256(of: server.root.file("photo.bin"))))
    }

    @Test func theSystemsCompletionHandlerIsCalledOnceTheEventsAreDelivered() async {
        let calls = LockedValue(0)
        await withCheckedContinuation { (delivered: CheckedContinuation<Void, Never>) in
            OfficerFiles.handleEventsForBackgroundURLSession("app.officer.relaunch") {
                calls.withLock { $0 += 1 }
                delivered.resume()
            }
            // What the system's urlSessionDidFinishEvents(forBackgroundURLSession:) does on Apple platforms.
            URLSessionEngine.forSession("app.officer.relaunch").backgroundEventsDelivered()
        }
        // A second delivery finds no handler: it was the system's to call once.
        URLSessionEngine.forSession("app.officer.relaunch").backgroundEventsDelivered()
        #expect(calls.withLock { $0 } == 1)
    }
}

#if os(Linux)
    import FileModel
    import Foundation
    import Officer
    import TestSupport
    import Testing

    /// The watch's settle time runs on the front door's clock: a new file goes up once the clock has passed its
    /// settle time and not before, shown on a manual clock without waiting for seconds to pass.
    @Suite(.timeLimit(.minutes(30))) struct WatchOnTheClockTests {
        let work = TemporaryDirectory(prefix: "watch-clock")

        @Test func aFileGoesUpOnceTheClockPassesItsSettleTime() async throws {
            let server = try await ReferenceServer.start(inMemory: true)
            let clock = ManualClock()
            var configuration = OfficerFiles.Configuration(server: server.url, tokens: MemoryTokenStore())
            configuration.http.clock = clock
            let files = try OfficerFiles(configuration: configuration)
            try await files.signIn(email: server.email, password: server.password)
            let folder = work.path + "/camera"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var options = WatchOptions()
            options.settleSeconds = 30
            options.openFileSettleSeconds = 30
            let watch = files.watch(folder, to: try files.path("/Camera"), options: options)
            defer { watch.cancel() }
            var events = watch.makeAsyncIterator()
            let caughtUp = await events.next()
            #expect(caughtUp == .caughtUp(uploaded: 0, failed: 0))

            try Data("a photo".utf8).write(to: URL(fileURLWithPath: folder + "/shot.jpg"))
            let seen = clock.now
            // The watch saw the file: its timer waits the settle time on the clock, and nothing went up yet.
            let due = await clock.nextSleep()
            #expect(seen.duration(to: due) == .seconds(30))
            #expect(!FileManager.default.fileExists(atPath: server.root.file("Camera/shot.jpg")))
            clock.advance(by: .seconds(30))
            let uploaded = await events.next()
            guard case .uploaded(_, let remote, let bytes, let settled) = uploaded else {
                Issue.record("expected the upload, got \(String(describing: uploaded))")
                return
            }
            #expect(remote.path == "/Camera/shot.jpg" && bytes == 7 && settled >= 30)
            #expect(try String(contentsOfFile: server.root.file("Camera/shot.jpg"), encoding: .utf8) == "a photo")
        }
    }
#endif

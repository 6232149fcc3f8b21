import FileModel
import Foundation
import TestSupport
import Testing

@testable import HTTP
@testable import Officer
@testable import Transfer

/// A remote that lists what it is told to, for the engine's bounds without a server.
private struct ScriptedRemote: SyncRemote {
    let badNames: Int
    var description: String { "scripted" }

    func makeIterator(missingRootIsEmpty: Bool) -> any SyncRemoteIterator { BadNameIterator(count: badNames) }
    func makeDirectory(_ path: SyncPath) async throws {}
    func upload(_ localFile: String, to path: SyncPath, mtime: Double, onProgress: @escaping @Sendable (Int64) -> Void)
        async throws
    {}
    func download(_ path: SyncPath, size: Int64, to localFile: String, onProgress: @escaping @Sendable (Int64) -> Void)
        async throws -> Double?
    { nil }
    func delete(_ path: SyncPath, isDirectory: Bool) async throws {}
    func sha256(_ path: SyncPath) async throws -> String { "" }
    func setModificationTime(_ path: SyncPath, to mtime: Double) async throws {}
}

/// Every entry a name the rule refuses, each in its own subtree so none hides another.
private final class BadNameIterator: SyncRemoteIterator, @unchecked Sendable {
    private var left: Int
    init(count: Int) { left = count }
    func next() async throws -> Result<SyncItem, SyncNameError>? {
        guard left > 0 else { return nil }
        left -= 1
        return .failure(SyncNameError(name: "/s/bad\u{1b}\(left)", reason: "a control character in the name"))
    }
}

@Suite struct SyncEngineBoundsTests {
    @Test func endlessRefusalsAreCountedNotKept() async throws {
        let local = TemporaryDirectory(prefix: "bounds")
        var options = SyncOptions(direction: .pull)
        options.dryRun = true
        let engine = SyncEngine(localRoot: local.path, remote: ScriptedRemote(badNames: 1500), options: options)
        let report = await engine.run()
        #expect(report.failures.count == SyncReport.listedFailureLimit)
        #expect(report.unlistedFailures == 500 && report.failureCount == 1500 && !report.succeeded)
    }
}

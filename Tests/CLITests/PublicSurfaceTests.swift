import Foundation
import TestSupport
import Testing

/// What an app sees through `import Officer`: the front door and its value types, never the engines. Counted by
/// `scripts/public-surface` from the symbol graphs of Officer and the modules it re-exports.
@Suite struct PublicSurfaceTests {
    /// Every public declaration, one `Module Path kind` line each, and the count.
    static func surface() async throws -> (lines: [String], count: Int) {
        let result = try await ProcessRunner.runDetached(
            ProcessRunner.packageRoot + "/scripts/public-surface",
            ["--list", "--build-path", ProcessRunner.packageRoot + "/.build/debug"])
        try #require(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let count = try #require(lines.last.flatMap { Int($0.replacingOccurrences(of: "public: ", with: "")) })
        return (Array(lines.dropLast()), count)
    }

    /// The bound grows only with what an app needs (468: signing out with its outcome, the connection settings an
    /// app sets, listing from the cache when unreachable).
    @Test func importOfficerShowsAtMost480Declarations() async throws {
        let (lines, count) = try await Self.surface()
        #expect(count <= 480, "\(count) public declarations through import Officer")
        #expect(count == lines.count)
        // No engine, journal, wire client or C wrapper is part of it.
        let engines = [
            "HTTPClient", "TransportCode", "TransferJournal", "SQLiteError", "VipsImage", "MagicCookie",
            "ArchiveReader",
            "TusUploader", "SegmentedDownloader", "SyncEngine", "OfficerClient", "SignatureV4", "ContentCache",
        ]
        for line in lines {
            let parts = line.split(separator: " ")
            let top = parts.count > 1 ? String(parts[1].split(separator: ".")[0]) : ""
            #expect(!engines.contains(top), "\(line)")
            #expect(parts.first.map { ["HTTP", "Journal"].contains(String($0)) } != true, "\(line)")
        }
    }

    /// HTTP and Journal are never re-exported: an app that imports Officer cannot name them.
    @Test func onlyTheValueLayersAreReExported() throws {
        let exports = try String(
            contentsOfFile: ProcessRunner.packageRoot + "/Sources/Officer/Exports.swift", encoding: .utf8)
        let exported = exports.split(separator: "\n").filter { $0.hasPrefix("@_exported import ") }
            .map { String($0.dropFirst("@_exported import ".count)) }
        #expect(Set(exported) == ["FileModel", "Preview", "Transfer"], "\(exported)")
    }
}

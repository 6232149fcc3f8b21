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
    /// app sets, listing from the cache when unreachable; 589: the four plug-in protocols an app brings and the
    /// types they take and return; 606: the trust settings, results as URLs and Dates, typed failures).
    @Test func importOfficerShowsAtMost620Declarations() async throws {
        let (lines, count) = try await Self.surface()
        #expect(count <= 620, "\(count) public declarations through import Officer")
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

    /// #56 item 9: the recorded API holds still. The build matches `api/Officer.json` but for what CHANGELOG.md's
    /// next version names; a public declaration the build no longer has fails the check until the changelog
    /// names it, and package declarations are never part of the record.
    @Test func aBreakOfTheRecordedAPIFailsUntilTheChangelogNamesIt() async throws {
        let script = ProcessRunner.packageRoot + "/scripts/public-surface"
        let build = ["--build-path", ProcessRunner.packageRoot + "/.build/debug"]
        let current = try await ProcessRunner.runDetached(script, ["--check-api"] + build)
        #expect(current.status == 0, "\(current.stdout)\(current.stderr)")

        // This build recorded, then as a release that had `signOutEverywhere()`: this build lacks it, a removal.
        let work = TemporaryDirectory(prefix: "api-check")
        let now = work.file("now.json")
        let recording = try await ProcessRunner.runDetached(script, ["--record-api", "--recorded", now] + build)
        #expect(recording.status == 0, "\(recording.stderr)")
        let recorded = try String(contentsOfFile: now, encoding: .utf8)
        #expect(recorded.contains("\"printedName\": \"signOut()\""))
        #expect(!recorded.contains("\"printedName\": \"OfficerServer\""), "a package type was recorded")
        let older = recorded.replacingOccurrences(of: "signOut()", with: "signOutEverywhere()")
            .replacingOccurrences(of: "C7signOut", with: "C17signOutEverywhere")
        let path = try work.write("Officer.json", older)
        let silent = try work.write("CHANGELOG.md", "# Changelog\n\n## 0.6.0 (unreleased)\n\nNothing yet.\n")
        let failed = try await ProcessRunner.runDetached(
            script, ["--check-api", "--recorded", path, "--changelog", silent] + build)
        #expect(failed.status != 0)
        #expect(
            failed.stdout.contains("BREAK: Func OfficerFiles.signOutEverywhere() has been"), "\(failed.stdout)")
        let named = try work.write(
            "NAMED.md", "# Changelog\n\n## 0.6.0 (unreleased)\n\n- `OfficerFiles.signOutEverywhere()` is gone.\n")
        let passed = try await ProcessRunner.runDetached(
            script, ["--check-api", "--recorded", path, "--changelog", named] + build)
        #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
    }
}

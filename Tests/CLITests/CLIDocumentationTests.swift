import Foundation
import OfficerFilesCLI
import Testing

/// docs/CLI.md and the README say what the code does: the same exit codes, each with the meaning the code gives it.
@Suite struct CLIDocumentationTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The rows `| CODE | meaning |` of the table under `## Exit codes` (or `### Exit codes`) in `file`.
    static func exitCodes(in file: String) throws -> [Int32: String] {
        let text = try String(contentsOf: repository.appendingPathComponent(file), encoding: .utf8)
        guard let start = text.range(of: "Exit codes\n") else { return [:] }
        var rows: [Int32: String] = [:]
        for line in text[start.upperBound...].split(separator: "\n").drop(while: { !$0.hasPrefix("|") }).prefix(while: { $0.hasPrefix("|") }) {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.count >= 2, let code = Int32(cells[0]) { rows[code] = cells[1] }
        }
        return rows
    }

    @Test func everyExitCodeIsDocumentedOnceAndAlike() throws {
        let guide = try Self.exitCodes(in: "docs/CLI.md")
        let readme = try Self.exitCodes(in: "README.md")
        #expect(Set(guide.keys) == Set(ExitCode.allCases.map(\.rawValue)), "docs/CLI.md: \(guide.keys.sorted())")
        #expect(guide == readme, "the README's table is the guide's")
    }

    @Test func theGuideNamesEveryEnvironmentVariableTheHelpNames() throws {
        let guide = try String(contentsOf: Self.repository.appendingPathComponent("docs/CLI.md"), encoding: .utf8)
        let help = OfficerFilesApp.rootSpec.discussion
        let names = help.split(whereSeparator: { !($0.isUppercase || $0 == "_") }).filter { $0.count > 3 && $0.contains("_") }
        #expect(!names.isEmpty)
        for name in names { #expect(guide.contains(String(name)), "\(name) is in the help, not in docs/CLI.md") }
    }

    @Test func docsJSONNamesEveryRecordOfTheSchema() throws {
        let guide = try String(contentsOf: Self.repository.appendingPathComponent("docs/JSON.md"), encoding: .utf8)
        let data = try Data(contentsOf: Self.repository.appendingPathComponent("docs/json/officer-files.schema.json"))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let records = try #require(schema["$defs"] as? [String: Any]).keys.filter { !["time", "location", "localPath", "bytes"].contains($0) }
        #expect(records.count > 20)
        for record in records { #expect(guide.contains("`\(record)`"), "docs/JSON.md does not name the record \(record)") }
    }
}

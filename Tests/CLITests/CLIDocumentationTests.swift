import Foundation
import OfficerFilesCLI
import Testing

/// docs/CLI.md and the README say what the code does: the same exit codes, each with the meaning the code gives it.
@Suite struct CLIDocumentationTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The rows `| CODE | meaning |` of the table under `## Exit codes` (or `### Exit codes`) in `file`.
    static func exitCodes(in file: String) throws -> [Int32: String] {
        let text = try String(contentsOf: repository.appendingPathComponent(file), encoding: .utf8)
        guard let start = text.range(of: "Exit codes\n") else { return [:] }
        var rows: [Int32: String] = [:]
        for line in text[start.upperBound...].split(separator: "\n").drop(while: { !$0.hasPrefix("|") }).prefix(while: {
            $0.hasPrefix("|")
        }) {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.count >= 2, let code = Int32(cells[0]) { rows[code] = cells[1] }
        }
        return rows
    }

    /// One table, the code's (``ExitCode/documentationTable``): the README and docs/CLI.md hold it word for word
    /// and the man page says each meaning, so a code that changes its meaning or a new one changes all three.
    @Test func everyExitCodeIsDocumentedOnceAndAlike() throws {
        let table = ExitCode.documentationTable
        for file in ["docs/CLI.md", "README.md"] {
            let text = try String(contentsOf: Self.repository.appendingPathComponent(file), encoding: .utf8)
            #expect(
                text.contains("\n" + table + "\n"),
                "\(file): its exit-code table is not ExitCode.documentationTable:\n\(table)")
            let rows = try Self.exitCodes(in: file)
            #expect(
                rows == Dictionary(uniqueKeysWithValues: ExitCode.allCases.map { ($0.rawValue, $0.meaning) }), "\(file)"
            )
        }
        let manual = OfficerFilesApp.manualPage
        for code in ExitCode.allCases {
            #expect(manual.contains(".B \(code.rawValue)\n"), "the man page lacks exit code \(code.rawValue)")
        }
    }

    /// The README's list of commands that read a plain `/path` as an Officer path is the code's.
    @Test func theCommandsThatReadPlainPathsAsOfficerPathsAreTheOnesTheReadmeNames() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let sentence = try #require(
            readme.range(of: "The commands that take only remote paths (").map {
                readme[$0.upperBound...].prefix { $0 != ")" }
            })
        let named = Set(
            sentence.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").first.map {
                    $0.trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                } ?? ""
            })
        #expect(
            named == CommandContext.plainPathsAreOfficer,
            "README: \(named.sorted()), code: \(CommandContext.plainPathsAreOfficer.sorted())")
    }

    @Test func theGuideNamesEveryEnvironmentVariableTheHelpNames() throws {
        let guide = try String(contentsOf: Self.repository.appendingPathComponent("docs/CLI.md"), encoding: .utf8)
        let help = OfficerFilesApp.rootSpec.discussion
        let names = help.split(whereSeparator: { !($0.isUppercase || $0 == "_") }).filter {
            $0.count > 3 && $0.contains("_")
        }
        #expect(!names.isEmpty)
        for name in names { #expect(guide.contains(String(name)), "\(name) is in the help, not in docs/CLI.md") }
    }

    @Test func docsJSONNamesEveryRecordOfTheSchema() throws {
        let guide = try String(contentsOf: Self.repository.appendingPathComponent("docs/JSON.md"), encoding: .utf8)
        let data = try Data(contentsOf: Self.repository.appendingPathComponent("docs/json/officer-files.schema.json"))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let records = try #require(schema["$defs"] as? [String: Any]).keys.filter {
            !["time", "location", "localPath", "bytes"].contains($0)
        }
        #expect(records.count > 20)
        for record in records {
            #expect(guide.contains("`\(record)`"), "docs/JSON.md does not name the record \(record)")
        }
    }
}

import Foundation
import TestSupport
import Testing

/// Commands parse, make one call of the library and render: which remote a place is on, and what that remote can
/// do, is the library's to know. A command that asks what kind a place is (to branch on it) is a rule kept in
/// one command and forgotten by the next.
@Suite struct CommandSeamTests {
    /// What asks the kind of a place: the Officer-path tests, a switch on a `Location`'s case, "can it be queued"
    /// standing for "is it Officer".
    static let kindChecks = [
        "isOfficerPath", "isWebAddress", "case .officer", "case .object", "case .url", ".local(let",
        "contains(.queuedWrites)",
    ]

    @Test func noCommandAsksWhatKindOfRemoteAPlaceIsOn() throws {
        let folder = ProcessRunner.packageRoot + "/Sources/OfficerFilesCLI/Commands"
        let names = try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }
        #expect(names.count > 20, "the commands were not found at \(folder)")
        var found: [String] = []
        for name in names.sorted() {
            let lines = try String(contentsOfFile: folder + "/" + name, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                for check in Self.kindChecks where line.contains(check) {
                    found.append("\(name):\(number + 1): \(check)")
                }
            }
        }
        #expect(found.isEmpty, "kind checks in commands:\n\(found.joined(separator: "\n"))")
    }

    /// The front door composes remotes without asking their kind: one place picks a location's remote
    /// (`OfficerFiles.remote(for:)`), and the queue of changes kept offline, an Officer server's feature by
    /// nature (`.queuedWrites`), reads Officer paths. Everything else goes through the remote.
    @Test func theFrontDoorAsksTheKindOfAPlaceInOnePlace() throws {
        let folder = ProcessRunner.packageRoot + "/Sources/Officer/FrontDoor"
        let names = try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }
        #expect(names.count > 20, "the front door was not found at \(folder)")
        let allowed = [
            "OfficerFiles+Locations.swift", "Queue/OfficerFiles+PendingChanges.swift", "RelocationPlan.swift",
        ]
        let checks = [
            "case .officer(let", "case .officer:", "case .object(", "case .object:", "case .url", "case .local",
            ".local(let",
        ]
        var found: [String] = []
        for name in names.sorted() where !allowed.contains(name) {
            let lines = try String(contentsOfFile: folder + "/" + name, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                for check in checks where line.contains(check) { found.append("\(name):\(number + 1): \(check)") }
            }
        }
        #expect(found.isEmpty, "kind checks in the front door:\n\(found.joined(separator: "\n"))")
    }

    /// A backend works on what it is given (an `OfficerServer`, an `ObjectStore`, the disk), never on the front
    /// door: nothing under Remotes, Server, ObjectStore, Sync or Client names `OfficerFiles` but its
    /// configuration and its error type. (Watch is not a backend: it runs the front door's catch-up sync.)
    @Test func backendsNeverCallBackIntoTheFrontDoor() throws {
        let officer = ProcessRunner.packageRoot + "/Sources/Officer"
        var found: [String] = []
        var read = 0
        for folder in ["Remotes", "Server", "ObjectStore", "Sync", "Client"] {
            let names = try FileManager.default.subpathsOfDirectory(atPath: officer + "/" + folder)
                .filter { $0.hasSuffix(".swift") }
            read += names.count
            for name in names.sorted() {
                let lines = try String(contentsOfFile: officer + "/" + folder + "/" + name, encoding: .utf8).split(
                    separator: "\n", omittingEmptySubsequences: false)
                for (number, line) in lines.enumerated()
                where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    let named = line.replacingOccurrences(of: "OfficerFilesError", with: "")
                        .replacingOccurrences(of: "OfficerFiles.Configuration", with: "")
                    if named.contains("OfficerFiles") { found.append("\(folder)/\(name):\(number + 1)") }
                }
            }
        }
        #expect(read > 40, "the backends were not found under \(officer)")
        #expect(found.isEmpty, "backends naming the front door:\n\(found.joined(separator: "\n"))")
    }
}

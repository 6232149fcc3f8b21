import Foundation
import TestSupport
import Testing
import Transfer

@testable import Journal

/// A damaged journal's unfinished uploads are carried into the new one whichever format the damaged file has:
/// 0.4's tables or this build's transfer states. Its downloads are counted, and start over.
@Suite struct JournalRecoveryTests {
    let folder = TemporaryDirectory(prefix: "journal-recovery")

    /// Recovers from `damaged` into a new journal; the report and the new journal.
    func recover(from damaged: String) throws -> (JournalRecovery, TransferJournal) {
        let path = folder.file(UUID().uuidString + ".sqlite")
        _ = try TransferJournal(path: path)
        let database = try SQLiteDatabase(path: path)
        let report = JournalRecovery(
            damaged: DamagedStateFile(path: path, reason: "a test", movedTo: damaged), into: database)
        return (report, try TransferJournal(path: path))
    }

    @Test(arguments: ["0.4's tables", "this build's states"])
    func uploadsAreCarriedOverAndDownloadsCounted(_ format: String) throws {
        let damaged = folder.file("damaged.sqlite")
        try FileManager.default.copyItem(atPath: StateMigrationTests.fixtures + "/journal-v3.sqlite", toPath: damaged)
        if format == "this build's states" { _ = try TransferJournal(path: damaged) }
        let (report, journal) = try recover(from: damaged)
        #expect(report.recovered["unfinished uploads"] == .some(1), "\(report.recovered)")
        #expect(report.recovered["unfinished object-store uploads"] == .some(1), "\(report.recovered)")
        #expect(report.downloadsStartingOver == 1)
        #expect(try journal.uploads().map(\.parts.first?.offset) == [1_310_720])
        #expect(try journal.objectUploads().map(\.uploadID) == ["2~abc"])
        #expect(try journal.downloads() == [])
    }
}

import FileModel
import Foundation
import Officer
import TestSupport
import Testing

/// A folder screen's paging through the front door: one level in pages, in name order, resumed after a kept
/// cursor — the same call on an Officer folder, an S3 prefix and a local folder.
@Suite struct FrontDoorPagingTests {
    let work = TemporaryDirectory(prefix: "front-door-pages")

    /// Every page of `folder`, from `cursor` on.
    func pages(_ files: OfficerFiles, _ folder: Location, size: Int, after cursor: String? = nil) async throws
        -> [ListingPage]
    {
        var all: [ListingPage] = []
        for try await page in files.pages(of: folder, size: size, after: cursor) { all.append(page) }
        return all
    }

    /// Pages of `folder` against the names it holds: sizes, order, cursors, and a resume from the first cursor.
    func check(_ files: OfficerFiles, _ folder: Location, names: [String]) async throws {
        let sorted = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let all = try await pages(files, folder, size: 10)
        #expect(all.map(\.entries.count) == [10, 10, sorted.count - 20], "\(folder)")
        #expect(all.flatMap(\.entries).map(\.name) == sorted, "\(folder)")
        #expect(all.map(\.cursor) == [sorted[9], sorted[19], nil])
        // An app that kept the first cursor continues there (a later run, the same call).
        let resumed = try await pages(files, folder, size: 10, after: all[0].cursor)
        #expect(resumed.flatMap(\.entries).map(\.name) == Array(sorted.dropFirst(10)))
        // Breaking out after the first page is fine, and costs the rest nothing.
        for try await page in files.pages(of: folder, size: 10) {
            #expect(page.entries.count == 10)
            break
        }
    }

    /// 25 names in no order, with one folder among them.
    let names = (0..<24).map { "file-\(($0 * 7) % 24).txt" } + ["Zfolder"]

    @Test func anOfficerFolderALocalFolderAndAnS3PrefixPageAlike() async throws {
        let server = try await ReferenceServer.start()
        let store = try await ObjectStoreServer.shared()
        let bucket = ObjectStoreServer.freshBucket("pages")
        var configuration = OfficerFiles.Configuration(server: server.url, tokens: MemoryTokenStore())
        configuration.http.engine = TestEngine.urlSession.engine
        configuration.journalPath = work.path + "/journal.sqlite"
        configuration.objectStores = [
            ObjectStoreRemote(name: "st", endpoint: store.url, accessKey: store.accessKey, secretKey: store.secretKey)
        ]
        let files = try OfficerFiles(configuration: configuration)
        try await files.signIn(email: server.email, password: server.password)

        for name in names where name.hasSuffix(".txt") {
            _ = try server.root.write("Pages/\(name)", name)
            _ = try work.write("local/\(name)", name)
        }
        _ = try server.root.write("Pages/Zfolder/inner.txt", "x")
        _ = try work.write("local/Zfolder/inner.txt", "x")
        try await check(files, try files.location("officer:/Pages"), names: names)
        try await check(files, .local(work.file("local")), names: names)

        _ = try await files.makeFolder(try files.location("st:\(bucket)"), parents: true)
        for name in names where name.hasSuffix(".txt") {
            _ = try await files.upload(
                URL(fileURLWithPath: work.file("local/\(name)")), to: try files.location("st:\(bucket)/p/")
            ).value
        }
        _ = try await files.upload(
            URL(fileURLWithPath: work.file("local/Zfolder/inner.txt")),
            to: try files.location("st:\(bucket)/p/Zfolder/")
        )
        .value
        try await check(files, try files.location("st:\(bucket)/p/"), names: names)
    }

    /// A server that pages, once it cannot be reached, leaves the pages to the folder's cached listing (as a folder
    /// screen shows the last listing it had); a front door that asks for the failure gets `network`.
    @Test func aPagingServerThatCannotBeReachedPagesTheCachedListing() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        for name in names where name.hasSuffix(".txt") { _ = try server.root.write("Pages/\(name)", name) }
        _ = try server.root.write("Pages/Zfolder/inner.txt", "x")
        var configuration = OfficerFiles.Configuration(server: server.url, tokens: MemoryTokenStore())
        configuration.journalPath = work.path + "/gone-journal.sqlite"
        configuration.cacheDirectory = work.path + "/gone-cache"
        configuration.connectTimeout = 5
        let files = try OfficerFiles(configuration: configuration)
        try await files.signIn(email: server.email, password: server.password)
        let folder = try files.location("officer:/Pages")
        // Online: paged by the server, and listed whole once (what the cache keeps).
        #expect(try await pages(files, folder, size: 10).flatMap(\.entries).count == names.count)
        #expect(try await files.list(folder).entries.count == names.count)
        server.service.stop()

        let sorted = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let offline = try await pages(files, folder, size: 10)
        #expect(offline.map(\.entries.count) == [10, 10, 5] && offline.flatMap(\.entries).map(\.name) == sorted)
        let resumed = try await pages(files, folder, size: 10, after: sorted[9])
        #expect(resumed.flatMap(\.entries).map(\.name) == Array(sorted.dropFirst(10)))
        configuration.listsFromCacheWhenUnreachable = false
        let strict = try OfficerFiles(configuration: configuration)
        await #expect {
            _ = try await pages(strict, folder, size: 10)
        } throws: { error in
            (error as? OfficerFilesError)?.category == .network
        }
    }

    /// Scrolling through 1,000 entries in pages of 100, a page a call as a folder screen asks for them, lists the
    /// folder once on a seed server (it listed it ten times); past two minutes on the front door's clock a page
    /// lists it again.
    @Test func aFolderIsListedOnceForACursorsLife() async throws {
        let server = try await ReferenceServer.start(arguments: ["--api", "seed"], inMemory: true)
        let names = (0..<1000).map { String(format: "f-%04d.txt", $0) }
        for name in names { _ = try server.root.write("Many/\(name)", "x") }
        let listings = LockedValue(0)
        let clock = ManualClock()
        var configuration = OfficerFiles.Configuration(server: server.url, tokens: MemoryTokenStore())
        configuration.http.clock = clock
        configuration.http.log = { line in
            if line.hasPrefix("> GET"), line.contains("/api/file-browser/ls?") { listings.withLock { $0 += 1 } }
        }
        let files = try OfficerFiles(configuration: configuration)
        try await files.signIn(email: server.email, password: server.password)
        let folder = try files.location("officer:/Many")

        /// The next page after `cursor`, one call as a screen makes it.
        func page(after cursor: String?) async throws -> ListingPage? {
            for try await page in files.pages(of: folder, size: 100, after: cursor) { return page }
            return nil
        }
        var seen: [String] = []
        var cursor: String?
        repeat {
            let next = try #require(try await page(after: cursor))
            seen += next.entries.map(\.name)
            cursor = next.cursor
        } while cursor != nil
        #expect(seen == names)
        #expect(listings.current == 1, "one listing for ten pages")

        let first = try #require(try await page(after: nil))
        #expect(listings.current == 2, "a first page lists afresh")
        clock.advance(by: .seconds(121))
        let second = try #require(try await page(after: first.cursor))
        #expect(second.entries.first?.name == "f-0100.txt")
        #expect(listings.current == 3, "past the cursor's life, the folder is listed again")
    }

    /// Where the server offers paging (the proposed `limit` and `after` of `ls`), each page is one request for
    /// that page: 1,000 entries in pages of 100 are ten requests of a hundred entries, never the whole folder.
    @Test func aServerThatPagesIsAskedForOnePageAtATime() async throws {
        let server = try await ReferenceServer.start(inMemory: true)
        let names = (0..<1000).map { String(format: "f-%04d.txt", $0) }
        for name in names { _ = try server.root.write("Many/\(name)", "x") }
        let asked = LockedValue<[String]>([])
        var configuration = OfficerFiles.Configuration(server: server.url, tokens: MemoryTokenStore())
        configuration.http.log = { line in
            if line.hasPrefix("> GET"), line.contains("/api/file-browser/ls?") { asked.withLock { $0.append(line) } }
        }
        let files = try OfficerFiles(configuration: configuration)
        try await files.signIn(email: server.email, password: server.password)
        let folder = try files.location("officer:/Many")
        var seen: [String] = []
        var cursor: String?
        repeat {
            var next: ListingPage?
            for try await page in files.pages(of: folder, size: 100, after: cursor) {
                next = page
                break
            }
            let page = try #require(next)
            #expect(page.entries.count == 100)
            seen += page.entries.map(\.name)
            cursor = page.cursor
        } while cursor != nil
        #expect(seen == names)
        #expect(asked.current.count == 10, "\(asked.current)")
        #expect(asked.current.allSatisfy { $0.contains("limit=100") }, "\(asked.current)")
        // Past the last name there is no page, as a cut listing ends (not an empty one).
        for try await page in files.pages(of: folder, size: 100, after: "f-0999.txt") {
            Issue.record("a page after the last name: \(page.entries.map(\.name))")
        }
    }
}

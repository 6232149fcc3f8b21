import Foundation
import Officer

// A phone app's whole file life on the product `Officer` alone, as an iOS app links it (no Linux plug-ins: the
// URLSession engine, the portable SHA-256, the portable JPEG position remover): sign in, scroll a folder a page at a
// time, open a file with progress, leave it and open it again (it continues), upload a camera photo (its position
// removed), attach it to a chat, sign out. Prints one line per step; never waits by sleeping.
let environment = ProcessInfo.processInfo.environment
guard let server = environment["OFFICER_SERVER"], let email = environment["OFFICER_EMAIL"],
    let password = environment["OFFICER_PASSWORD"], CommandLine.arguments.count == 4
else {
    FileHandle.standardError.write(
        Data("usage: OFFICER_SERVER=… OFFICER_EMAIL=… OFFICER_PASSWORD=… phone-app FOLDER FILE PHOTO\n".utf8))
    exit(2)
}
let (folderText, fileName, photo) = (CommandLine.arguments[1], CommandLine.arguments[2], CommandLine.arguments[3])

/// The folder's rows as a list screen loads them: one page per scroll, each asked after the last one's cursor.
func scroll(_ files: OfficerFiles, _ folder: Location) async throws -> [RemoteEntry] {
    var rows: [RemoteEntry] = []
    var cursor: String?
    repeat {
        var next: String?
        for try await page in files.pages(of: folder, size: 10, after: cursor) {
            rows += page.entries
            next = page.cursor
            break  // the screen shows this page; the next scroll asks for the next one
        }
        cursor = next
        print("page: \(rows.count) rows")
    } while cursor != nil
    return rows
}

/// Opens `entry` into `folder`, leaving once its first bytes are here (the user closed the screen), then opens it
/// again: the same call continues from the bytes kept.
func openLeaveAndOpenAgain(_ files: OfficerFiles, _ entry: RemoteEntry, into folder: URL) async throws {
    let destination = folder.appendingPathComponent(entry.name)
    let first = files.download(entry.location, to: destination)
    var here: Int64 = 0
    for await update in first.progress() {
        here = update.progress.doneBytes
        if here > 0 { break }  // leaving the loop cancels the download
    }
    do {
        _ = try await first.value
        print("left: finished before it could be left")
    } catch {
        // `value` fails with the front door's one error type, typed.
        print("left: \(error.category.rawValue) after \(here > 0 ? "some" : "no") bytes")
    }
    let again = files.download(entry.location, to: destination)
    var state = "-"
    for await update in again.progress() { state = update.progress.state.rawValue }
    let result = try await again.value
    print("opened: \(state), \(result.bytes) bytes, resumed \(result.resumedBytes > 0 ? "yes" : "no")")
}

func run() async throws {
    let files = try OfficerFiles(
        configuration: .standard(server: server, tokens: MemoryTokenStore(), environment: environment))
    let user = try await files.signIn(email: email, password: password)
    print("signed in: \(user.email)")
    let folder = try files.location(folderText)
    let rows = try await scroll(files, folder)

    let downloads = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("opened")
    try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
    guard let entry = rows.first(where: { $0.name == fileName }) else {
        print("failed: \(fileName) is not in \(folder)")
        exit(1)
    }
    try await openLeaveAndOpenAgain(files, entry, into: downloads)

    let camera = URL(fileURLWithPath: photo)
    let uploads = files.upload(photos: [camera], to: folder)
    var total: Int64?
    for await update in uploads.progress() where total == nil { total = update.progress.totalBytes }
    for outcome in try await uploads.value {
        let placed = outcome.location?.description ?? "-"
        let failure = outcome.failure?.message ?? "none"
        print("photo: \(placed) \(outcome.result?.bytes ?? 0) bytes of \(total ?? 0), failure \(failure)")
    }
    let attached = try await files.attach([camera]).value
    print("attachments: \(attached.count), \(attached.first?.size ?? 0) bytes")

    let signedOut = try await files.signOut()
    print("signed out: \(signedOut.wasSignedIn), \(signedOut.problem?.message ?? "revoked on the server")")
    do {
        _ = try await files.whoAmI()
        print("after sign-out: still signed in")
    } catch {
        print("after sign-out: \(error.category.rawValue)")
    }
}

do {
    try await run()
} catch {
    print("failed: \(error)")
    exit(1)
}

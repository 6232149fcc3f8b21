import Foundation
import Officer

#if canImport(OfficerLinux)
    import OfficerLinux
#endif

// Drives the folder screen as a user would: scroll, open a file and cancel, open it again, add a camera photo,
// send two images as chat attachments, and read a failure. Prints one line per step.
let environment = ProcessInfo.processInfo.environment
guard let server = environment["OFFICER_SERVER"], let email = environment["OFFICER_EMAIL"],
    let password = environment["OFFICER_PASSWORD"], CommandLine.arguments.count == 4
else {
    FileHandle.standardError.write(
        Data("usage: OFFICER_SERVER=… OFFICER_EMAIL=… OFFICER_PASSWORD=… file-browser FOLDER BIGFILE PHOTO\n".utf8))
    exit(2)
}
let (folderText, bigName, photo) = (CommandLine.arguments[1], CommandLine.arguments[2], CommandLine.arguments[3])
#if canImport(OfficerLinux)
    // FoundationNetworking's URLSession cannot keep the screen's bandwidth limit; libcurl's engine can.
    LinuxPlugins.install()
#endif

@MainActor func run() async throws {
    let files = try OfficerFiles(
        configuration: .standard(server: server, tokens: MemoryTokenStore(), environment: environment))
    try await files.signIn(email: email, password: password)
    let screen = FolderScreen(files: files, folder: try files.location(folderText), pageSize: 10)

    while !screen.isComplete {
        await screen.loadMore()
        print("page: \(screen.rows.count) rows, cursor \(screen.cursor ?? "-")")
        if screen.failure != nil { break }
    }

    // Open the big file and cancel once some of it is here; the same call later continues.
    let downloads = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("opened")
    try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
    guard let big = screen.rows.first(where: { $0.name == bigName }) else { throw CancellationError() }
    let first = screen.open(big, into: downloads, rate: 1 << 20)
    while first.progress.doneBytes == 0, !first.isFinished { try await Task.sleep(nanoseconds: 20_000_000) }
    first.cancel()
    while !first.isFinished { try await Task.sleep(nanoseconds: 20_000_000) }
    print("cancelled: \(first.progress.state.rawValue)")
    let second = screen.open(big, into: downloads)
    while !second.isFinished { try await Task.sleep(nanoseconds: 20_000_000) }
    print(
        "opened: \(second.progress.state.rawValue), \(second.progress.doneBytes) bytes, resumed \(second.progress.resumedBytes)"
    )

    if let outcome = await screen.addPhoto(URL(fileURLWithPath: photo)) {
        print("photo: \(outcome.location?.description ?? "-") \(outcome.result?.bytes ?? 0) bytes")
    }
    let ids = await screen.attach([URL(fileURLWithPath: photo)])
    print("attachments: \(ids.count) \(ids.first?.count ?? 0)-digit ids")

    // A failure an app shows as it is.
    let missing = FolderScreen(files: files, folder: try files.location(folderText + "/no-such-folder"))
    await missing.loadMore()
    print("failure: \(missing.failure ?? "none")")
}

do {
    try await run()
} catch {
    print("failed: \(error)")
    exit(1)
}

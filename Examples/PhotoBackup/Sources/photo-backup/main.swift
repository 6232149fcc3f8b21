// photo-backup FOLDER officer:/DEST — backs up a photo folder to an Officer server: images are resized to
// 1600 px and stripped of their metadata on the way, the folder is synced (only what changed goes up, and an
// interrupted run continues), progress is printed as it happens, then the facts of the first photo on the server.
//
// OFFICER_SERVER, OFFICER_EMAIL and OFFICER_PASSWORD say where and as whom.
import Foundation
import Officer

#if canImport(OfficerLinux)
    // Preparing images needs libvips: on Linux, the plug-ins; an iOS app would install ImageIO's.
    import OfficerLinux
    LinuxPlugins.install()
#endif

let environment = ProcessInfo.processInfo.environment
let arguments = CommandLine.arguments
guard arguments.count == 3, let server = environment["OFFICER_SERVER"], let email = environment["OFFICER_EMAIL"],
    let password = environment["OFFICER_PASSWORD"]
else {
    FileHandle.standardError.write(
        Data("usage: OFFICER_SERVER=… OFFICER_EMAIL=… OFFICER_PASSWORD=… photo-backup FOLDER officer:/DEST\n".utf8))
    exit(2)
}

do {
    var configuration = OfficerFiles.Configuration.standard(
        server: server, tokens: MemoryTokenStore(), environment: environment)
    configuration.onWarning = { print("warning: \($0)") }
    let files = try OfficerFiles(configuration: configuration)
    try await files.signIn(email: email, password: password)
    let destination = try files.location(arguments[2])
    _ = try await files.makeFolder(destination, parents: true)

    var imageOptions = ImagePreparationOptions()
    imageOptions.maxEdge = 1600
    var options = SyncOptions(direction: .push)
    options.preparingImages = imageOptions
    options.bestEffortImages = true

    let backup = files.sync(from: .local(arguments[1]), to: destination, options: options)
    for await event in backup {
        switch event {
        case .done(let action): print("done: \(action.path)")
        case .progress(let path, let bytes, let total): print("progress: \(path) \(bytes)/\(total)")
        case .failed(let failure): print("failed: \(failure)")
        default: break
        }
    }
    let report = try await backup.value
    print(
        "backed up: \(report.transferred) files, \(report.bytes) bytes, \(report.unchanged) unchanged, \(report.failureCount) failed"
    )

    if let first = try await files.list(destination).entries.first(where: { !$0.isFolder }) {
        let facts = try await files.facts(of: first.location)
        let size = facts.image.map { " \($0.width)x\($0.height)" } ?? ""
        print("facts: \(first.name) \(facts.type.mime) \(facts.type.viewer.rawValue)\(size)")
    }
    exit(report.succeeded ? 0 : 1)
} catch {
    // Typed errors with a category: what an app would show, decided without reading the message.
    FileHandle.standardError.write(Data("photo-backup: \(error) [\(ErrorCategory.of(error).rawValue)]\n".utf8))
    exit(1)
}

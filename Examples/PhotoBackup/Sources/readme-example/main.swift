import Foundation
import Officer

#if canImport(OfficerLinux)
    // On Linux, the plug-ins over libcurl, libmagic, libarchive, libvips and OpenSSL; an iOS app links Officer alone.
    import OfficerLinux
    LinuxPlugins.install()
#endif

// One front door per server: it owns the HTTP settings, the token store, the journal of unfinished transfers
// and the cache (the standard places under $XDG_STATE_HOME and $XDG_CACHE_HOME here).
let environment = ProcessInfo.processInfo.environment
let files = try OfficerFiles(
    configuration: .standard(
        server: environment["OFFICER_SERVER"]!, tokens: MemoryTokenStore(), environment: environment))
try await files.signIn(email: environment["OFFICER_EMAIL"]!, password: environment["OFFICER_PASSWORD"]!)

// Every place is a Location: this machine, an Officer server, an S3 remote, a plain URL. Browse one.
for entry in try await files.list(files.location("officer:/")).entries { print(entry.name, entry.size) }

// Upload: tus, resumable, checksummed, placed as cp places copies. Long work is an AsyncSequence of events;
// cancelling the task pauses an upload, and the same call later continues it.
let local = URL(fileURLWithPath: NSTemporaryDirectory() + "notes.txt")
try Data("hello from the front door\n".utf8).write(to: local)
let upload = files.upload(local, to: try files.location("officer:/notes.txt"), overwrite: true)
for await event in upload {
    if case .progress(_, let done) = event { print("sent \(done) bytes") }
}
print("uploaded", try await upload.value.bytes, "bytes")

// Download: resumable, verified, in parallel ranges for large files, from the cache when still current.
var options = DownloadOptions()
options.force = true
let download = files.download(
    try files.location("officer:/notes.txt"), to: URL(fileURLWithPath: NSTemporaryDirectory() + "notes-copy.txt"),
    options: options)
print("saved", try await download.value.path)

// A change made now, or kept while the server cannot be reached and sent by sendPendingChanges() later;
// pendingChanges() and unfinishedTransfers() are streams a screen binds to.
_ = try await files.makeOrQueue(.makeFolder(files.location("officer:/Inbox"), parents: true))
for await kept in files.pendingChanges() {
    print(kept.count, "change(s) kept")
    break
}

// What a file is, how the Officer viewer shows it, which AI actions fit.
let facts = try await files.facts(of: files.location("officer:/notes.txt"))
print(facts.type.mime, facts.type.viewer.rawValue, facts.lines ?? 0, "line(s)")

// Errors are typed and carry a category: decide without reading messages.
do {
    _ = try await files.stat(files.location("officer:/no-such-file"))
} catch {
    print("stat failed:", error.category.rawValue, "-", error.localizedDescription)
}

import Foundation
import Officer

// An S3-compatible remote goes through the same front door, with its HTTP settings and journal.
let environment = ProcessInfo.processInfo.environment
var configuration = OfficerFiles.Configuration.standard(
    server: nil, tokens: MemoryTokenStore(), environment: environment)
configuration.objectStores = [
    ObjectStoreRemote(
        name: "backup", endpoint: environment["S3_ENDPOINT"]!, accessKey: environment["S3_ACCESS_KEY"]!,
        secretKey: environment["S3_SECRET_KEY"]!)
]
let files = try OfficerFiles(configuration: configuration)
let bucket = try files.location("backup:" + (environment["S3_BUCKET"] ?? "photos"))
_ = try await files.makeFolder(bucket, parents: true)

// Upload one file: resumable in parts, each part's Content-MD5 checked by the store.
let pictures = NSTemporaryDirectory() + "Pictures"
try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true)
try Data("a photo, say\n".utf8).write(to: URL(fileURLWithPath: pictures + "/a.jpg"))
let photos = try files.location(bucket.description + "/2026/")
_ = try await files.upload(URL(fileURLWithPath: pictures + "/a.jpg"), to: photos).value
for entry in try await files.list(photos).entries { print(entry.location, entry.size) }

// Sync a folder to the bucket: the same engine as between this machine and an Officer server.
try Data("another\n".utf8).write(to: URL(fileURLWithPath: pictures + "/b.jpg"))
let report = try await files.sync(from: .local(pictures), to: photos, options: SyncOptions(direction: .push)).value
print("synced", report.transferred, "file(s),", report.unchanged, "unchanged")

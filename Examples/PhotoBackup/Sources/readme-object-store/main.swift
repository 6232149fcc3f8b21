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
let store = try files.objectStore(named: "backup")
let bucket = environment["S3_BUCKET"] ?? "photos"
try await store.makeBucket(ObjectStorePath(remote: "backup", bucket: bucket, key: ""), existingIsFine: true)

// Upload one file: resumable in parts, each part's Content-MD5 checked by the store.
let pictures = NSTemporaryDirectory() + "Pictures"
try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true)
try Data("a photo, say\n".utf8).write(to: URL(fileURLWithPath: pictures + "/a.jpg"))
let photos = ObjectStorePath(remote: "backup", bucket: bucket, key: "2026/")
_ = try await store.upload(pictures + "/a.jpg", to: photos).value
for try await entry in store.list(photos) { print(entry.path, entry.size) }

// Sync a folder to the bucket: the same engine as between this machine and an Officer server.
try Data("another\n".utf8).write(to: URL(fileURLWithPath: pictures + "/b.jpg"))
let report = try await files.sync(from: .local(pictures), to: .object(photos), options: SyncOptions(direction: .push))
    .value
print("synced", report.transferred, "file(s),", report.unchanged, "unchanged")

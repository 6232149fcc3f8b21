import FileModel
import Testing

/// `NAME:bucket/key` as typed: only configured names are remotes, and nothing climbs out of a bucket.
@Suite struct ObjectStorePathTests {
    let remotes: Set<String> = ["backup", "st"]

    @Test func parsesBucketsKeysAndFolders() throws {
        let root = try #require(try ObjectStorePath(parsing: "backup:", remotes: remotes))
        #expect(root.isRemoteRoot && root.description == "backup:")
        let bucket = try #require(try ObjectStorePath(parsing: "backup:photos", remotes: remotes))
        #expect(bucket.isBucket && bucket.bucket == "photos" && bucket.folderPrefix == "")
        let file = try #require(try ObjectStorePath(parsing: "backup:/photos//2026/a b.jpg", remotes: remotes))
        #expect(
            file.bucket == "photos" && file.key == "2026/a b.jpg" && file.name == "a b.jpg"
                && file.folderPrefix == "2026/a b.jpg/")
        let folder = try #require(try ObjectStorePath(parsing: "st:photos/2026/", remotes: remotes))
        #expect(
            folder.key == "2026/" && folder.objectKey == "2026" && folder.folderPrefix == "2026/"
                && folder.name == "2026")
        #expect(folder.appending("x.jpg").key == "2026/x.jpg")
        #expect(bucket.appending("x.jpg").description == "backup:photos/x.jpg")
    }

    @Test func otherTextIsNotARemotePath() throws {
        #expect(try ObjectStorePath(parsing: "officer:/a", remotes: remotes) == nil)
        #expect(try ObjectStorePath(parsing: "other:bucket/a", remotes: remotes) == nil)
        #expect(try ObjectStorePath(parsing: "local/file:name", remotes: remotes) == nil)
        #expect(try ObjectStorePath(parsing: "backup", remotes: remotes) == nil)
    }

    @Test func refusesClimbingNULAndControlCharacters() {
        #expect(throws: RemotePathError.self) { try ObjectStorePath(parsing: "st:photos/../etc", remotes: remotes) }
        #expect(throws: RemotePathError.self) { try ObjectStorePath(parsing: "st:photos/./a", remotes: remotes) }
        #expect(throws: RemotePathError.self) { try ObjectStorePath(parsing: "st:photos/a\0b", remotes: remotes) }
        #expect(throws: RemotePathError.self) { try ObjectStorePath(parsing: "st:photos/a\nb", remotes: remotes) }
    }
}

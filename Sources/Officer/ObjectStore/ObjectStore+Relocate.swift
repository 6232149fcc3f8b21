import FileModel
import Transfer

extension ObjectStore {
    /// What a copy or a move did: the objects it placed and where the source landed.
    package struct Relocation: Sendable, Equatable {
        /// Where the source is now (or its copy): the target path.
        package var target: ObjectStorePath
        /// Objects copied (and, for a move, removed from the source).
        package var objects: Int
    }

    /// Copies an object, or with `recursive` every object below a folder, inside this store (bucket to bucket
    /// too): the bytes never leave the store. Placed as cp places copies: into a bucket, a path ending in `/`
    /// or an existing folder under the source's name, else to the name given; an existing object is replaced
    /// only with `overwrite`.
    package func copy(
        _ source: ObjectStorePath, to destination: ObjectStorePath, overwrite: Bool = false, recursive: Bool = false
    ) async throws -> Relocation {
        try await relocate(
            source, to: destination, overwrite: overwrite, recursive: recursive, removing: false, placing: true)
    }

    /// Moves an object or a folder inside this store: S3 has no move, so each object is copied, the copy
    /// confirmed (its size, and its ETag where the source's is a plain MD5), and only then is the source removed.
    /// A failure leaves every object whole in one place or the other: a folder's moved objects at the target, the
    /// rest at the source (a rerun moves the rest).
    package func move(_ source: ObjectStorePath, to destination: ObjectStorePath, overwrite: Bool = false) async throws
        -> Relocation
    {
        try await relocate(
            source, to: destination, overwrite: overwrite, recursive: true, removing: true, placing: true)
    }

    /// A copy or move to exactly `target` (its placement decided by the caller).
    func relocate(
        _ source: ObjectStorePath, toExactly target: ObjectStorePath, overwrite: Bool, recursive: Bool, removing: Bool
    ) async throws -> Relocation {
        try await relocate(
            source, to: target, overwrite: overwrite, recursive: recursive, removing: removing, placing: false)
    }

    /// The largest object one copy request may copy.
    static let largestCopy: Int64 = 5 << 30

    private func relocate(
        _ source: ObjectStorePath, to destination: ObjectStorePath, overwrite: Bool, recursive: Bool, removing: Bool,
        placing: Bool
    ) async throws -> Relocation {
        guard !source.isRemoteRoot, !source.isBucket else {
            throw FrontDoorRefusal.invalidValue(
                "\(source): name a file or a folder inside a bucket, not a whole bucket")
        }
        guard source.remote == destination.remote, !destination.isRemoteRoot else {
            throw FrontDoorRefusal.invalidValue(
                "\(destination): name a bucket, a folder or a file on \(source.remote)")
        }
        let entry = try await stat(source)
        var into = placing && (destination.isBucket || destination.key.hasSuffix("/"))
        if placing, !into { into = (try? await stat(destination))?.isFolder == true }
        let target = into ? destination.appending(source.name) : destination
        if target.bucket == source.bucket, target.objectKey == source.objectKey {
            throw FrontDoorRefusal.invalidValue("\(source): is already there")
        }
        guard entry.isFolder else {
            try await relocateObject(
                (source.objectKey, entry.size, entry.etag),
                from: source.bucket, to: target.bucket, key: target.objectKey, overwrite: overwrite, removing: removing,
                shown: source)
            return Relocation(target: target, objects: 1)
        }
        guard recursive else { throw FrontDoorRefusal.copyNeedsRecursive(source.description) }
        if target.bucket == source.bucket, (target.objectKey + "/").hasPrefix(source.folderPrefix) {
            throw FrontDoorRefusal.invalidValue("\(target): is inside \(source)")
        }
        let prefix = source.folderPrefix
        let targetPrefix = target.folderPrefix
        var count = 0
        var token: String?
        repeat {
            let page = try await client.list(bucket: source.bucket, prefix: prefix, continuation: token)
            for object in page.objects {
                let key = targetPrefix + object.key.dropFirst(prefix.count)
                try await relocateObject(
                    (object.key, object.size, object.etag), from: source.bucket, to: target.bucket, key: key,
                    overwrite: overwrite, removing: removing,
                    shown: ObjectStorePath(remote: source.remote, bucket: source.bucket, key: object.key))
                count += 1
            }
            token = page.nextToken
        } while token != nil
        return Relocation(target: target, objects: count)
    }

    private func relocateObject(
        _ object: (key: String, size: Int64, etag: String?), from bucket: String, to targetBucket: String, key: String,
        overwrite: Bool, removing: Bool,
        shown: ObjectStorePath
    ) async throws {
        let targetShown = ObjectStorePath(remote: shown.remote, bucket: targetBucket, key: key)
        guard object.size <= Self.largestCopy else {
            throw FrontDoorRefusal.invalidValue(
                "\(shown): larger than 5 GiB, which S3 copies only in parts (not available): use get and put")
        }
        if !overwrite, try await client.head(bucket: targetBucket, key: key) != nil {
            throw FrontDoorRefusal.exists(targetShown.description)
        }
        try await client.copy(bucket: bucket, key: object.key, toBucket: targetBucket, key: key)
        guard removing else { return }
        // The source goes only once the store holds the copy whole.
        guard let copied = try await client.head(bucket: targetBucket, key: key), copied.size == object.size,
            object.etag?.contains("-") != false || copied.etag == object.etag
        else {
            throw ObjectStoreError.server(
                request: "move \(shown)", status: 500, code: nil,
                message: "the store's copy at \(targetShown) is not the same: the source was kept")
        }
        try await client.delete(bucket: bucket, key: object.key)
    }
}

import FileModel
import Foundation
import HTTP
import Preview
import Transfer

extension OfficerServer {

    /// A JPEG thumbnail of an Officer file, longest edge at most `size`, shown the way its EXIF orientation says.
    /// In order: the cache (a thumbnail of this size made within ``thumbnailFreshness``; offline, any); the
    /// server's thumbnail endpoint when its features offer one (pictures, a video's first frame, a PDF's first
    /// page); a JPEG's embedded EXIF thumbnail from its first 64 KiB when that is at least `size` across; else
    /// the file is downloaded (through the cache) and thumbnailed here. Kept in the cache, against its limit.
    package func thumbnail(of path: RemotePath, size: Int = 256) async throws -> Thumbnail {
        try Thumbnail.checkSize(size)
        let cache = try usableCache()
        let key = try cacheKey(path, kind: CacheKey.Kind.thumbnail + "?size=\(size)")
        if let entry = try cache?.entry(for: key),
            isOffline || Date().timeIntervalSince1970 - entry.created < Thumbnail.freshness,
            let data = entry.contents()
        {
            let image = ThumbnailImage(
                jpeg: data, width: Int(entry.metadata["width"] ?? "") ?? 0,
                height: Int(entry.metadata["height"] ?? "") ?? 0)
            return Thumbnail(image: image, origin: .cache)
        }
        if isOffline { throw FrontDoorRefusal.notCachedOffline(path) }
        let made = try await makeThumbnail(of: path, size: size)
        do {
            try cache?.store(
                made.image.jpeg, for: key, version: "thumbnail",
                metadata: ["width": String(made.image.width), "height": String(made.image.height)])
        } catch {
            configuration.http.log?("cache: thumbnail not stored: \(error)")
        }
        return made
    }

    private func makeThumbnail(of path: RemotePath, size: Int) async throws -> Thumbnail {
        let client = try client
        if await serverFeatures().contains("thumbnail") {
            // A 404 may be the endpoint's (a server naming a feature it does not serve): the file's own stat below
            // tells a missing file, and the thumbnail is made here.
            let asked: Result<Data, OfficerError>
            do { asked = .success(try await client.thumbnail(path, size: size)) } catch { asked = .failure(error) }
            switch asked {
            case .success(let jpeg):
                let (width, height) = FileFacts.jpegSize(jpeg) ?? (0, 0)
                return Thumbnail(image: ThumbnailImage(jpeg: jpeg, width: width, height: height), origin: .server)
            case .failure(.notFound): configuration.http.log?("thumbnail: the server's endpoint answered 404")
            case .failure(let error): throw error
            }
        }
        let entry = try await client.stat(path)
        guard !entry.isDirectory else { throw FrontDoorRefusal.isAFolder(path) }
        guard Thumbnail.thumbnailable(path.name), entry.size > 0 else {
            throw FrontDoorRefusal.noPicture(path.description)
        }
        if ["jpg", "jpeg"].contains((path.name as NSString).pathExtension.lowercased()) {
            let file = RangedFile(
                http: http, url: client.rawURL(for: path), credential: client.credential, size: entry.size, etag: nil)
            let prefix = try await BlockingWork.onOwnThread(cancelling: file) {
                try file.bytes(at: 0, length: FileTypeDetector.prefixLength)
            }
            if let embedded = ExifThumbnail.find(in: prefix), max(embedded.width, embedded.height) >= size {
                let image = try await BlockingWork.onOwnThread(cancelling: nil) {
                    try ThumbnailMaker.thumbnail(of: embedded, size: size)
                }
                return Thumbnail(image: image, origin: .embedded)
            }
        }
        let scratch =
            NSTemporaryDirectory() + "/officer-thumb-source-\(getpid())-\(UUID().uuidString)."
            + (path.name as NSString).pathExtension
        defer { unlink(scratch) }
        _ = try await download(path, to: scratch).value
        let image = try await BlockingWork.onOwnThread(cancelling: nil) {
            try ThumbnailMaker.thumbnail(ofFile: scratch, size: size, shownAs: path.description)
        }
        return Thumbnail(image: image, origin: .rendered)
    }

    /// The features the server names (asked once per front door; a server that does not answer names none).
    func serverFeatures() async -> Set<String> {
        await featureSlot.get { [self] in (try? await serverInfo()).map { Set($0.features ?? []) } }
    }

}

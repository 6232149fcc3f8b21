import FileModel
import Foundation
import HTTP
import Preview
import Transfer

/// Where a thumbnail came from.
package enum ThumbnailOrigin: String, Sendable, Codable {
    /// Made earlier and kept in the cache: no request.
    case cache
    /// The server's thumbnail endpoint.
    case server
    /// The camera's EXIF thumbnail in the photo's first 64 KiB (one Range request).
    case embedded
    /// The file was downloaded (or copied from the cache) and thumbnailed here.
    case rendered
    /// A local file, thumbnailed here.
    case local
}

/// A JPEG thumbnail and where it came from.
package struct Thumbnail: Sendable {
    /// The JPEG and its size.
    package var image: ThumbnailImage
    /// How it was made.
    package var origin: ThumbnailOrigin
}

extension Thumbnail {
    /// How long a cached thumbnail is used without asking the server: a folder shown again costs no request,
    /// and a picture changed meanwhile shows its old thumbnail at most this long.
    package static let freshness: Double = 3600

    /// The sizes a thumbnail may be asked in (longest edge, pixels).
    package static let sizes = 16...1024

    /// Pictures libvips makes thumbnails of here (a folder's thumbnails are made of these).
    package static func thumbnailable(_ name: String) -> Bool {
        UploadImagePreparation.imageExtensions.contains((name as NSString).pathExtension.lowercased())
    }

    /// A JPEG thumbnail of a local image file (libvips shrink-on-load), longest edge at most `size`.
    static func ofLocalFile(_ local: String, size: Int) async throws -> ThumbnailImage {
        try checkSize(size)
        try LocalFiles.requireLocalFile(local)
        guard thumbnailable(local) else { throw FrontDoorRefusal.noPicture(local) }
        return try await BlockingWork.onOwnThread(cancelling: nil) {
            try ThumbnailMaker.thumbnail(ofFile: local, size: size)
        }
    }

    /// Refuses a size outside ``sizes``.
    static func checkSize(_ size: Int) throws(FrontDoorRefusal) {
        guard sizes.contains(size) else {
            throw .invalidValue(
                "thumbnail size \(size): give \(sizes.lowerBound) to \(sizes.upperBound) pixels")
        }
    }
}

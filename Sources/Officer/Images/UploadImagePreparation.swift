import FileModel
import Foundation
import HTTP
import Preview
import Transfer

/// Images prepared for upload (resized, re-encoded, metadata stripped) into a folder of their own, named by
/// the source's fingerprint and the settings, so a rerun after a kill finds the same bytes and resumes the same
/// upload. Files that are not images pass through; HEIC and HEIF become JPEG (and their names `.jpg`).
package struct UploadImagePreparation: Sendable {
    /// File extensions handed to the preparer; anything else uploads as it is.
    package static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "png", "webp", "heic", "heif", "gif", "tif", "tiff",
    ]

    /// The preparer with its settings.
    package let preparer: ImagePreparer
    /// Upload a damaged image unchanged (with a warning) instead of failing it.
    package let bestEffort: Bool
    /// Where prepared copies are kept until uploaded.
    package let folder: String
    /// How a source is named in its copy's name: relative to its base folder, so a moved container finds the
    /// copies it made (and the uploads of them resume).
    package let anchors: PathAnchors

    /// Prepares with `options` into `folder`.
    package init(
        options: ImagePreparationOptions, bestEffort: Bool, folder: String, anchors: PathAnchors = PathAnchors()
    ) {
        preparer = ImagePreparer(options: options)
        self.bestEffort = bestEffort
        self.folder = folder
        self.anchors = anchors
    }

    /// The name a local file gets on the server when prepared (`IMG_1.heic` → `IMG_1.jpg`; with `--format webp`
    /// `a.png` → `a.webp`), or nil when it is not an image this prepares. Sync compares listings by this name,
    /// and the bytes sent are always in the format it names.
    package func uploadedName(for name: String) -> String? {
        guard Self.imageExtensions.contains((name as NSString).pathExtension.lowercased()) else { return nil }
        return preparer.options.format.preparedName(for: name)
    }

    /// What goes up for one local file.
    package struct Item: Sendable {
        /// The file to send.
        package var path: String
        /// The name it gets on the server.
        package var name: String
        /// A prepared copy to delete once uploaded.
        package var temporary: String?
        /// Why the original goes up unchanged, if it does after a failure.
        package var warning: String?
    }

    /// Prepares `local` (images only; other files pass through), to go up as `name` when given (a destination
    /// the user named: its extension then chooses the format), else under ``uploadedName(for:)``.
    package func prepare(_ local: String, as givenName: String? = nil) -> Result<Item, ImageError> {
        let name = givenName ?? (local as NSString).lastPathComponent
        let ext = (name as NSString).pathExtension.lowercased()
        guard Self.imageExtensions.contains(ext) else { return .success(Item(path: local, name: name)) }
        do {
            let format = try preparer.outputFormat(
                for: local, named: givenName ?? preparer.options.format.preparedName(for: name))
            let fingerprint = try FileFingerprint(path: local)
            let hasher = SHA256Hasher()
            hasher.update(
                Data(
                    "\(anchors.kept(fingerprint.path))|\(fingerprint.size)|\(fingerprint.modificationTime)|\(fingerprint.headHash)|\(fingerprint.tailHash)|\(preparer.options.signature)"
                        .utf8))
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let output = folder + "/" + hasher.finalizeHex() + "." + format.fileExtension
            let newName = givenName ?? format.name(for: name)
            // Already prepared by an earlier (interrupted) run: the same bytes, so the upload resumes.
            if FileManager.default.fileExists(atPath: output) {
                return .success(Item(path: output, name: newName, temporary: output))
            }
            let prepared = try preparer.prepare(local, to: output)
            if prepared.usedOriginal { return .success(Item(path: local, name: givenName ?? name)) }
            return .success(Item(path: output, name: newName, temporary: output))
        } catch let error as ImageError {
            if bestEffort, error.isAboutTheImage {
                // As it is means with its metadata: never with a GPS position preparing would have stripped.
                guard preparer.mayGoUpUnchanged(local) else { return .failure(.wouldSendPosition(error)) }
                return .success(
                    Item(path: local, name: name, warning: "\(error.wording); uploading it unchanged (best effort)"))
            }
            return .failure(error)
        } catch {
            return .failure(.writeFailed(file: folder, message: "\(error)"))
        }
    }
}

extension UploadImagePreparation {
    /// The hooks a push sync uses: names compared as they will be on the server, images prepared before upload
    /// (`onWarning` hears of a damaged image going up unchanged).
    package func syncHooks(onWarning: @escaping @Sendable (String) -> Void = { _ in }) -> SyncImagePreparation {
        SyncImagePreparation(
            uploadedName: { self.uploadedName(for: $0) },
            prepare: { local in
                switch self.prepare(local) {
                case .success(let item):
                    if let warning = item.warning { onWarning(warning) }
                    return item.path
                case .failure(let error): throw error
                }
            })
    }
}

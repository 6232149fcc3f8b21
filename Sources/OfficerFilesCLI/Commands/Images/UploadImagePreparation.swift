import Foundation
import HTTP
import Officer
import Preview
import Transfer

/// `put --resize`: images are prepared into a cache folder before upload, named by the source's
/// fingerprint and the settings, so a rerun after a kill finds the same bytes and resumes the same upload.
struct UploadImagePreparation: Sendable {
    let preparer: ImagePreparer
    /// Upload a damaged image unchanged (with a warning) instead of failing it.
    let bestEffort: Bool
    let folder: String

    init(options: ImagePreparationOptions, bestEffort: Bool, environment: [String: String]) {
        preparer = ImagePreparer(options: options)
        self.bestEffort = bestEffort
        let base: String
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            base = cache
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        }
        folder = base + "/officer-files/prepared"
    }

    /// What goes up for one local file.
    struct Item: Sendable {
        /// The file to send.
        var path: String
        /// The name it gets on the server.
        var name: String
        /// A prepared copy to delete once uploaded.
        var temporary: String?
        /// Why the original goes up unchanged, if it does after a failure.
        var warning: String?
    }

    /// Prepares `local` (images only; other files pass through).
    func prepare(_ local: String) -> Result<Item, ImageError> {
        let name = (local as NSString).lastPathComponent
        let ext = (name as NSString).pathExtension.lowercased()
        guard ImageSettings.imageExtensions.contains(ext) else { return .success(Item(path: local, name: name)) }
        do {
            let format = try preparer.outputFormat(for: local)
            let fingerprint = try FileFingerprint(path: local)
            let hasher = SHA256Hasher()
            hasher.update(Data("\(fingerprint.path)|\(fingerprint.size)|\(fingerprint.mtimeNanoseconds)|\(fingerprint.headHash)|\(fingerprint.tailHash)|\(preparer.options.signature)".utf8))
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let output = folder + "/" + hasher.finalizeHex() + "." + format.fileExtension
            let newName = (name as NSString).deletingPathExtension + "." + format.fileExtension
            // Already prepared by an earlier (interrupted) run: the same bytes, so the upload resumes.
            if FileManager.default.fileExists(atPath: output) { return .success(Item(path: output, name: newName, temporary: output)) }
            let prepared = try preparer.prepare(local, to: output)
            if prepared.usedOriginal { return .success(Item(path: local, name: name)) }
            return .success(Item(path: output, name: newName, temporary: output))
        } catch let error as ImageError {
            if bestEffort, case .undecodable = error {
                return .success(Item(path: local, name: name, warning: "\(error); uploading it unchanged (--resize=best-effort)"))
            }
            return .failure(error)
        } catch {
            return .failure(.writeFailed(file: folder, message: "\(error)"))
        }
    }
}

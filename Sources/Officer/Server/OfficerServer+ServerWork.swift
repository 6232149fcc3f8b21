import FileModel
import Foundation
import HTTP
import Transfer

/// Which engine the server fetches a URL with.
package enum ServerFetchEngine: String, Sendable, CaseIterable {
    /// git for a URL whose path ends in `.git`, yt-dlp for anything else.
    case automatic
    /// `git clone`.
    case git
    /// yt-dlp: media pages and direct media links.
    case media
}

extension OfficerServer {
    /// Extracts an Officer archive on the server into a new folder (default: beside it, named after it). The
    /// archive's safety report is read first by ranges (traversal, absolute paths, links out, bombs,
    /// encryption) and a risky archive is refused (``FrontDoorRefusal/unsafeArchive(_:risks:)``) unless
    /// `force`; the server applies its own rules whatever this says. The job is finished when the server was
    /// quick, else follow it with ``follow(_:requireSuccess:)``.
    package func extract(_ archive: RemotePath, to destination: RemotePath? = nil, force: Bool = false) async throws
        -> Job
    {
        if isOffline { throw FrontDoorRefusal.needsNetwork("extract \(archive)") }
        try Self.requireSameRoot(archive, destination)
        let folder = try destination ?? archive.parent.appending(ArchiveName.folderName(for: archive.name))
        if !force {
            let bytes = try await archiveBytes(archive)
            let inspection = try await BlockingWork.onOwnThread(cancelling: bytes.ranged) {
                try bytes.inspect(name: archive.description)
            }
            if !inspection.warnings.isEmpty {
                throw FrontDoorRefusal.unsafeArchive(
                    archive.description,
                    risks: inspection.warnings.map { warning in
                        warning.entry.map { "'\($0)' \(warning.detail)" } ?? warning.detail
                    },
                    refusedWhole: inspection.warnings.contains {
                        [.absolutePath, .parentTraversal, .linkEscapes].contains($0.kind)
                    })
            }
        }
        do {
            let answer = try await client.extract(
                ExtractRequest(root: archive.root, path: archive.path, to: folder.path))
            return Self.job(from: answer, kind: "extract", target: archive.path, base: archive)
        } catch OfficerError.conflict(_, _, "exists") {
            throw FrontDoorRefusal.folderExists(folder)
        }
    }

    /// Transcodes an Officer video on the server to H.264/AAC in MP4 with its index first (plays while it
    /// downloads), at most `height` pixels high, as a job. The output goes beside the video unless given.
    package func transcode(
        _ video: RemotePath, height: Int? = nil, format: String = "mp4", output: RemotePath? = nil,
        overwrite: Bool = false
    ) async throws -> Job {
        if isOffline { throw FrontDoorRefusal.needsNetwork("transcode \(video)") }
        try Self.requireSameRoot(video, output)
        if let height, !(64...4320).contains(height) {
            throw FrontDoorRefusal.invalidValue("height \(height): give 64 to 4320 pixels")
        }
        guard format == "mp4" else {
            throw FrontDoorRefusal.invalidValue("format \(format): the server transcodes to mp4")
        }
        let client = try client
        // Checked before the job starts, as the AI actions are: a job bound to fail would say so only later, in
        // the server's words.
        let entry = try await client.stat(video)
        guard !entry.isDirectory else { throw FrontDoorRefusal.isAFolder(video) }
        let type = FileType(contentMIME: entry.mime ?? "application/octet-stream", charset: "", fileName: entry.name)
        guard type.viewer == .video || type.viewer == .audio || type.viewer == .transcodedVideo else {
            throw FrontDoorRefusal.notAVideo(video.description, mime: type.mime)
        }
        // Given a height, the server names the result by the height it makes (never above the video's own), which
        // only it knows: it checks that name itself.
        let target = try output ?? (height == nil ? Self.transcodeOutput(of: video, height: nil, format: format) : nil)
        if let target, let existing = try await client.statIfExists(target) {
            if existing.isDirectory { throw FrontDoorRefusal.isAFolder(target) }
            if !overwrite { throw FrontDoorRefusal.exists(target.description) }
        }
        let request = TranscodeRequest(
            root: video.root, path: video.path, height: height, format: format, output: output?.path,
            overwrite: overwrite ? true : nil)
        let offered = await client.knownOffer(.transcode)
        guard offered != false else {
            throw OfficerError.notOffered(request: "transcode", feature: "transcoding into a file on the server")
        }
        let answer: JobAnswer<EntryResponse>
        do {
            answer = try await client.transcode(request)
        } catch OfficerError.conflict(_, _, "exists") {
            throw FrontDoorRefusal.exists(
                target?.description ?? "the transcode of \(video) at most \(height ?? 0) px high")
        } catch {
            guard case .notFound = error, offered == nil || client.offers.doubt(.transcode) else {
                throw error
            }
            // A 404 from an endpoint the server may not have: the video's listing tells which.
            _ = try await client.stat(video)
            client.offers.learn(.transcode, offered: false)
            throw OfficerError.notOffered(request: "transcode", feature: "transcoding into a file on the server")
        }
        return Self.job(from: answer, kind: "transcode", target: video.path, base: video)
    }

    /// Where the server puts a transcode given no output: beside the video, `NAME.HEIGHTp.mp4` (`NAME.mp4`
    /// without a height, and a height the video has not named by the one made; `NAME.transcoded.mp4` when that
    /// is the video itself).
    static func transcodeOutput(of video: RemotePath, height: Int?, format: String) throws -> RemotePath {
        let stem = (video.name as NSString).deletingPathExtension
        var name = stem + (height.map { ".\($0)p" } ?? "") + "." + format
        if name == video.name { name = stem + ".transcoded." + format }
        return try video.parent.appending(name)
    }

    /// Saves the server's streamed transcode of `video` (the seed's `GET transcode`: H.264/AAC MP4 made as it is
    /// sent) to `destination` through a temp file: whole or not at all, not resumable (the stream has no ranges).
    package func transcodeStream(
        _ video: RemotePath, to destination: String, options: DownloadOptions = DownloadOptions()
    ) -> TransferOperation<DownloadResult> {
        TransferOperation { report in
            if self.isOffline { throw FrontDoorRefusal.needsNetwork("transcode \(video)") }
            let client = try self.client
            return try await SegmentedDownloader(http: self.http, journal: nil).download(
                answerTo: client.transcodeStreamRequest(of: video), to: destination, options: options
            ) { report($0) }
        }
    }

    /// Has the server fetch `url` into `folder`: `git clone` or yt-dlp (see ``ServerFetchEngine``), as a job. The
    /// server fetches only public http(s) addresses.
    package func fetchIntoServer(
        _ url: String, into folder: RemotePath, engine: ServerFetchEngine = .automatic, name: String? = nil,
        overwrite: Bool = false
    ) async throws -> Job {
        if isOffline { throw FrontDoorRefusal.needsNetwork("fetch \(url)") }
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", components.host?.isEmpty == false
        else {
            throw FrontDoorRefusal.invalidValue("\(url): the server fetches only http and https URLs")
        }
        let useGit = engine == .git || (engine == .automatic && components.path.lowercased().hasSuffix(".git"))
        let request = ServerFetchRequest(
            root: folder.root, url: url, path: folder.path, name: name, overwrite: overwrite ? true : nil)
        let client = try client
        if useGit {
            return Self.job(from: try await client.gitClone(request), kind: "git-clone", target: url, base: folder)
        }
        return Self.job(
            from: try await client.downloadVideo(request), kind: "download-video", target: url, base: folder)
    }

    /// Downloads one zip of Officer files and folders (under one root) to `destination`. Where the server offers
    /// the proposed `GET zip`, it lays the zip out from the listing (same files, same bytes, a strong ETag), so it
    /// is fetched like any file: resumable after any interruption, in parallel ranges, and started over if a file
    /// changed meanwhile. Otherwise the seed's `POST download` makes it as it is asked: one stream, not resumable.
    package func downloadZip(
        of paths: [RemotePath], to destination: String, options: DownloadOptions = DownloadOptions()
    ) -> TransferOperation<DownloadResult> {
        TransferOperation { report in
            guard let first = paths.first else { throw FrontDoorRefusal.invalidValue("nothing to zip") }
            for path in paths { try Self.requireSameRoot(first, path) }
            if self.isOffline { throw FrontDoorRefusal.needsNetwork("a zip of \(first)") }
            let client = try self.client
            let offered = await client.knownOffer(.zip)
            if offered != false {
                do {
                    return try await SegmentedDownloader(http: self.http, journal: try self.journal).download(
                        from: client.zipURL(of: paths), credential: client.credential, to: destination, options: options
                    ) { report($0) }
                } catch DownloadError.server(_, 404, _) where offered == nil || client.offers.doubt(.zip) {
                    // Not offered (the seed's servers have no GET zip): the seed's POST below.
                    client.offers.learn(.zip, offered: false)
                }
            }
            return try await SegmentedDownloader(http: self.http, journal: nil).download(
                answerTo: try client.zipRequest(of: paths), to: destination, options: options
            ) { report($0) }
        }
    }

    /// Server operations work within one root of one server.
    static func requireSameRoot(_ first: RemotePath, _ other: RemotePath?) throws {
        if let other, other.root != first.root || other.remote != first.remote {
            throw FrontDoorRefusal.invalidValue("\(other): must be in the same root of the same server as \(first)")
        }
    }
}

import FileModel
import Foundation
import HTTP
import Preview
import Transfer

/// A plain http(s) address as a ``Remote``: it can be read, nothing else (the token never goes to it).
struct WebAddressRemote: Remote {
    /// The connection its requests go through: the default server's HTTP settings, journal and uploads'
    /// endpoints, never its token (every request here is sent without a credential).
    let connection: OfficerServer

    var kind: String { "a web address" }

    func features() async -> RemoteFeatures { [.ranges] }

    func url(_ location: Location) throws -> String {
        guard case .url(let url) = location else {
            throw FrontDoorRefusal.invalidValue("\(location): not a web address")
        }
        return url
    }

    /// A web address takes uploads as a tus server's creation URL: each file under its own name, no token.
    func uploadRoute(of locals: [String], to destination: Location, request: UploadRequest, queueing: Bool)
        async throws -> UploadPlan.Route?
    {
        .targets(.tus(url: try url(destination)), on: connection)
    }

    /// Downloads the address to `local` (resumable from the journal, never with the token).
    func download(_ location: Location, to local: String, options: DownloadOptions) -> TransferOperation<DownloadResult>
    {
        let connection = connection
        return TransferOperation { report in
            let url = try url(location)
            if connection.isOffline { throw FrontDoorRefusal.needsNetwork(url) }
            return try await SegmentedDownloader(http: connection.http, journal: try connection.journal).download(
                from: url, credential: nil, to: local, options: options
            ) { report($0) }
        }
    }

    /// Writes the address's bytes to `fileDescriptor`, resuming transparently after network failures; never
    /// from the cache.
    func read(_ location: Location, to fileDescriptor: Int32, outputName: String, bandwidthLimit: Int64?) async throws
        -> Int64
    {
        let url = try url(location)
        if connection.isOffline { throw FrontDoorRefusal.needsNetwork(url) }
        return try await SegmentedDownloader(http: connection.http, journal: nil).stream(
            from: url, credential: nil, to: fileDescriptor, copy: nil, ifNoneMatch: nil, bandwidthLimit: bandwidthLimit
        ).written
    }

    /// The address read by ranges: its length and validator from a HEAD; a server that does not say it serves
    /// ranges is refused before any body is fetched.
    func archiveBytes(_ location: Location) async throws -> ArchiveBytes {
        let url = try url(location)
        if connection.isOffline { throw FrontDoorRefusal.needsNetwork(url) }
        let http = connection.http
        var request = HTTPRequest(method: "HEAD", url: url, sink: .memory(limit: 0), credential: nil)
        request.redirects = .anyOrigin
        let response = try await http.send(request)
        guard response.isSuccess else {
            throw DownloadError.server(url: url, status: response.status, message: response.errorMessage)
        }
        guard let length = response.headers["Content-Length"].flatMap({ Int64($0) }),
            await SegmentedDownloader(http: http, journal: nil).servesRanges(
                url: response.effectiveURL, credential: nil, acceptRanges: response.headers["Accept-Ranges"])
        else {
            throw DownloadError.unexpectedAnswer(
                url: url, reason: "the server does not serve byte ranges; download the file first")
        }
        let etag = response.headers["ETag"].flatMap { $0.hasPrefix("\"") ? $0 : nil }
        return .ranged(RangedFile(http: http, url: response.effectiveURL, credential: nil, size: length, etag: etag))
    }
}

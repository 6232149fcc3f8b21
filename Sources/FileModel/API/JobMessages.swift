import Foundation

/// Where a job is in its life. `done`, `failed` and `cancelled` are final.
package enum JobState: String, Codable, Sendable, CaseIterable {
    /// Waiting for a free slot on the server.
    case queued
    /// Working.
    case running
    /// Finished; its ``Job/result`` holds what it made.
    case done
    /// Stopped by an error; ``Job/error`` says which.
    case failed
    /// Stopped on request.
    case cancelled

    /// True once the job will not change again.
    package var isFinal: Bool { self == .done || self == .failed || self == .cancelled }
}

/// How far a job is: `done` of `total` (unknown while nil) in `unit` (`bytes`, `seconds`, `percent`).
package struct JobProgress: Codable, Sendable, Equatable {
    /// Work done so far, in `unit`.
    package var done: Double?
    /// All the work, in `unit`, when known.
    package var total: Double?
    /// What `done` and `total` count.
    package var unit: String?
    /// What the job is doing now, in the server's words.
    package var message: String?

    /// Creates a progress value.
    package init(done: Double? = nil, total: Double? = nil, unit: String? = nil, message: String? = nil) {
        self.done = done
        self.total = total
        self.unit = unit
        self.message = message
    }

    /// The share done, 0 to 1, when the total is known.
    package var fraction: Double? {
        guard let done, let total, total > 0 else { return nil }
        return min(1, max(0, done / total))
    }
}

/// Why a job failed: the error body its request would have answered with.
package struct JobFailure: Codable, Sendable, Equatable {
    /// The HTTP status the failure maps to.
    package var status: Int?
    /// The server's error code (`unsafe_archive`, `forbidden_address`, `engine_failed` ...).
    package var code: String
    /// The server's message.
    package var message: String

    /// Creates a failure.
    package init(status: Int?, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }
}

/// A long server operation (extraction, transcoding, a fetch into the server, a long AI action) that the
/// server runs on its own: `GET /api/jobs/{id}` follows it, `DELETE` cancels it, and it outlives the client.
package struct Job: Codable, Sendable, Equatable {
    /// The server's id for it.
    package var id: String
    /// What it does: `extract`, `transcode`, `git-clone`, `download-video`, `ocr`, `transcribe` ...
    package var kind: String
    /// What it works on: a path or a URL.
    package var target: String?
    /// Where it is.
    package var state: JobState
    /// Seconds since 1970 when it was created.
    package var created: Double?
    /// Seconds since 1970 of its last change.
    package var updated: Double?
    /// Counts the job's changes; a long poll waits for a higher one.
    package var revision: Int
    /// How far it is.
    package var progress: JobProgress
    /// What a `done` job made: the body its request would have answered with.
    package var result: JSONValue?
    /// Why a `failed` job failed.
    package var error: JobFailure?
    /// The server and root its paths are in, as the request that started it named them (`work:` for a job on the
    /// Officer remote `work`): set by the front door, never sent by the server. Nil: the default server's default root.
    package var base: RemotePath?

    private enum CodingKeys: String, CodingKey {
        case id, kind, target, state, created, updated, revision, progress, result, error
    }

    /// Creates a job record.
    package init(
        id: String, kind: String, target: String?, state: JobState, revision: Int = 0,
        progress: JobProgress = JobProgress(),
        result: JSONValue? = nil, error: JobFailure? = nil, created: Double? = nil, updated: Double? = nil
    ) {
        self.id = id
        self.kind = kind
        self.target = target
        self.state = state
        self.revision = revision
        self.progress = progress
        self.result = result
        self.error = error
        self.created = created
        self.updated = updated
    }

    /// The result decoded as the type its kind promises; nil when there is none or it does not fit.
    package func result<Value: Decodable>(as type: Value.Type) -> Value? {
        guard let result, let data = try? JSONEncoder().encode(result) else { return nil }
        return try? JSONDecoder().decode(Value.self, from: data)
    }

    /// What the job works on as the user writes it: `officer:/a.zip` (`work:/a.zip` on a named remote) for a path
    /// on the server, the address itself for a fetched URL, the job's id when it names nothing.
    package var shownTarget: String {
        guard let target, !target.isEmpty else { return id }
        guard target.hasPrefix("/"), let path = place(target) else { return target }
        return path.description
    }

    /// A path the job names (its target, what it made) as a place on the job's server and root (``base``).
    package func place(_ path: String) -> RemotePath? {
        try? RemotePath(root: base?.root ?? RemotePath.defaultRoot, path: path, remote: base?.remote)
    }

    /// The files and folders the job made (`entry` or `entries` of its result).
    package var createdEntries: [FileEntry] {
        if let one = result(as: EntryResponse.self) { return [one.entry] }
        return result(as: EntriesResponse.self)?.entries ?? []
    }
}

/// `{"job": Job}`: a 202 answer, and the answer of `GET`/`DELETE /api/jobs/{id}`.
package struct JobEnvelope: Codable, Sendable {
    /// The job.
    package var job: Job
}

/// `{"jobs": [Job]}`: the answer of `GET /api/jobs`.
package struct JobList: Codable, Sendable {
    /// The caller's jobs, oldest first.
    package var jobs: [Job]
}

/// Body of `POST /api/file-browser/extract`.
package struct ExtractRequest: Codable, Sendable, Equatable {
    /// The root of `path` and `to`.
    package var root: String
    /// The archive.
    package var path: String
    /// The folder to create (default: beside the archive, named after it).
    package var to: String?

    /// Creates a request.
    package init(root: String, path: String, to: String? = nil) {
        self.root = root
        self.path = path
        self.to = to
    }
}

/// Body of `POST /api/file-browser/transcode`.
package struct TranscodeRequest: Codable, Sendable, Equatable {
    /// The root of `path` and `output`.
    package var root: String
    /// The video.
    package var path: String
    /// Largest height of the result in pixels (never scaled up); nil keeps the size.
    package var height: Int?
    /// The container: `mp4` (H.264 and AAC, index first).
    package var format: String
    /// Where to write it (default: beside the video: `v.mkv` → `v.mp4`, `v.720p.mp4` with a height).
    package var output: String?
    /// Replace an existing output.
    package var overwrite: Bool?

    /// Creates a request.
    package init(
        root: String, path: String, height: Int? = nil, format: String = "mp4", output: String? = nil,
        overwrite: Bool? = nil
    ) {
        self.root = root
        self.path = path
        self.height = height
        self.format = format
        self.output = output
        self.overwrite = overwrite
    }
}

/// Body of `POST /api/file-browser/git-clone` and `download-video`.
package struct ServerFetchRequest: Codable, Sendable, Equatable {
    /// The root of `path`.
    package var root: String
    /// What to fetch: an http(s) URL.
    package var url: String
    /// The folder to fetch into.
    package var path: String
    /// The new folder's name (`git-clone`; default: from the URL).
    package var name: String?
    /// Replace existing files (`download-video`).
    package var overwrite: Bool?

    /// Creates a request.
    package init(root: String, url: String, path: String, name: String? = nil, overwrite: Bool? = nil) {
        self.root = root
        self.url = url
        self.path = path
        self.name = name
        self.overwrite = overwrite
    }
}

/// What `extract` made: the new folder and how many entries went in it.
package struct ExtractResponse: Codable, Sendable, Equatable {
    /// The folder created.
    package var entry: FileEntry
    /// Entries extracted.
    package var extracted: Int
}

import FileModel
import Foundation
import HTTP
import Journal
import Preview
import Transfer

/// Runs the server's AI actions (OCR, text-to-speech, transcription, audio extraction) on server files, local
/// files and given text: checks the action fits the file's kind before anything is sent, uploads a local file
/// resumably into an inbox folder, calls the action with its own timeout, downloads a produced file, caches
/// results by the target's identity (content hash for local files, size and mtime for server files) and the
/// action's parameters, and removes what it put in the inbox.
package struct RemoteActionRunner: Sendable {
    /// The client for uploads, downloads and file calls.
    package let client: OfficerClient
    /// Uploads local targets.
    package let uploader: TusUploader
    /// Downloads produced files.
    package let downloader: SegmentedDownloader
    /// Results are kept here; nil disables caching.
    package let cache: ContentCache?
    /// Where local files are uploaded to be worked on.
    package let inbox: RemotePath
    /// The longest one action may take on the server, in seconds.
    package let timeout: Double

    /// The default inbox: `officer:/.officer-files/inbox` (a fixed path the name rule accepts).
    package static let defaultInbox = (try? RemotePath(path: "/.officer-files/inbox"))!

    /// Creates a runner.
    package init(
        client: OfficerClient, journal: TransferJournal?, cache: ContentCache?,
        inbox: RemotePath = RemoteActionRunner.defaultInbox,
        timeout: Double = 300
    ) {
        self.client = client
        uploader = TusUploader.describingFiles(http: client.http, journal: journal, server: client)
        downloader = SegmentedDownloader(http: client.http, journal: journal)
        self.cache = cache
        self.inbox = inbox
        self.timeout = timeout
    }

    /// Runs one action; `onEvent` hears the upload, the processing and the download.
    package func run(_ request: RemoteActionRequest, onEvent: (@Sendable (RemoteActionEvent) -> Void)? = nil)
        async throws(RemoteActionError) -> RemoteActionResult
    {
        let started = Date()
        let label = request.target.description
        let identity = try await identify(request)
        let key = CacheKey(
            server: client.accountIdentity, root: identity.root, path: identity.path,
            kind: CacheKey.Kind.aiResult(action: request.action.rawValue, parameters: request.parameters))
        if !request.refresh, var cached = try cachedResult(request, key: key, version: identity.version) {
            cached.seconds = Date().timeIntervalSince(started)
            return cached
        }
        let result = RemoteActionResult(
            target: label, action: request.action, engine: "cache", fromCache: false, seconds: 0)
        var sent = SentInput()
        defer { for path in sent.converted { unlink(path) } }
        try await prepareInput(request, identity: identity, into: &sent, onEvent: onEvent)
        var producedOnServer: RemotePath?
        let outcome: Result<RemoteActionResult, RemoteActionError>
        do {
            outcome = .success(
                try await perform(
                    request, input: sent.input, uploaded: sent.uploaded, identity: identity, key: key, result: result,
                    producedOnServer: &producedOnServer, onEvent: onEvent))
        } catch {
            outcome = .failure(error)
        }
        if !request.keepRemote, sent.uploaded != nil || producedOnServer != nil {
            // After the result is in hand, failed or not; a leftover in the inbox would be harmless and visible.
            for path in [sent.uploaded, producedOnServer].compactMap({ $0 }) { _ = try? await client.remove(path) }
        }
        var finished = try outcome.get()
        finished.seconds = Date().timeIntervalSince(started)
        return finished
    }

    /// The result an earlier run left in the cache for this version of the target: its text, or its output saved
    /// where this run would save a fresh one; nil when there is none (or it cannot serve this request).
    private func cachedResult(_ request: RemoteActionRequest, key: CacheKey, version: String)
        throws(RemoteActionError) -> RemoteActionResult?
    {
        guard let cached = try? cache?.entry(for: key, version: version) else { return nil }
        let label = request.target.description
        var result = RemoteActionResult(
            target: label, action: request.action, engine: "cache", fromCache: true, seconds: 0)
        if request.producesText, let data = cached.contents() {
            result.text = String(decoding: data, as: UTF8.self)
            return result
        }
        guard let destination = request.download, let handle = FileHandle(forReadingAtPath: cached.path) else {
            return nil
        }
        // Where this run would save it: the same name rule as a fresh result, not an earlier run's -o.
        let produced = cached.metadata["produced"] ?? "output"
        let path = try localDestination(destination, name: outputName(request.target, produced: produced))
        var options = DownloadOptions()
        options.force = request.force
        do {
            let saved = try downloader.install(
                from: handle.fileDescriptor, expectedLength: cached.size, to: path, options: options)
            result.savedPath = saved.path
            result.outputBytes = saved.bytes
            return result
        } catch {
            throw .download(target: label, error)
        }
    }

    /// What the action is called on: the server's file, or a copy this run put in the inbox, and the local files
    /// made on the way (removed when the run ends).
    private struct SentInput {
        var input: RemotePath?
        var uploaded: RemotePath?
        var converted: [String] = []
    }

    /// Puts the input where the server's action reads it: a local file goes into the inbox under a name no other
    /// file can take (its content hash); a photo the server's OCR cannot read (HEIC) goes as a JPEG made here, a
    /// server's copy fetched first.
    private func prepareInput(
        _ request: RemoteActionRequest, identity: (root: String, path: String, version: String),
        into sent: inout SentInput, onEvent: (@Sendable (RemoteActionEvent) -> Void)?
    ) async throws(RemoteActionError) {
        let label = request.target.description
        switch request.target {
        case .local(let path):
            var file = path
            if request.action == .ocr, Self.isHEIF(name: path) {
                file = try Self.jpegForOCR(path, label: label)
                sent.converted.append(file)
            }
            sent.uploaded = try await upload(
                file, contentHash: identity.path.dropFirst(), label: label, onEvent: onEvent)
            sent.input = sent.uploaded
        case .remote(let path):
            sent.input = path
            guard request.action == .ocr, Self.isHEIF(name: path.name) else { return }
            let fetched = NSTemporaryDirectory() + "/officer-files-ocr-\(UUID().uuidString).heic"
            sent.converted.append(fetched)
            do {
                _ = try await downloader.download(
                    from: client.rawURL(for: path), credential: client.credential, to: fetched)
            } catch {
                throw .download(target: label, error)
            }
            let file = try Self.jpegForOCR(fetched, label: label)
            sent.converted.append(file)
            sent.uploaded = try await upload(
                file, contentHash: Substring(identity.version.replacingOccurrences(of: "/", with: "-")),
                label: label, onEvent: onEvent)
            sent.input = sent.uploaded
        default:
            return
        }
    }

    // MARK: Steps

    /// Calls the action and handles its answer; `producedOnServer` names a server file this run created in the inbox.
    private func perform(
        _ request: RemoteActionRequest, input: RemotePath?, uploaded: RemotePath?,
        identity: (root: String, path: String, version: String),
        key: CacheKey, result: RemoteActionResult, producedOnServer: inout RemotePath?,
        onEvent: (@Sendable (RemoteActionEvent) -> Void)?
    ) async throws(RemoteActionError) -> RemoteActionResult {
        var result = result
        let label = request.target.description
        onEvent?(.processing)
        let actionClient = client.with(http: longRunningHTTP())
        var body = AIActionRequest(root: input?.root ?? inbox.root, path: input?.path)
        switch request.action {
        case .ocr: body.language = request.language
        case .tts:
            body.voice = request.voice
            if case .text(let text) = request.target {
                body.text = text
                body.output = (try? inbox.appending("speech-\(identity.path.dropFirst().prefix(16)).wav"))?.path
                body.root = inbox.root
                try await ensureInbox(label)
            }
        case .extractAudio: body.format = request.format
        case .transcribe: break
        }
        // The inbox is ours to overwrite. Beside a user's file the output may be anything of theirs: it is
        // replaced only with force, as put and get replace nothing without it (a fresh result does not say it).
        if !request.producesText { body.overwrite = uploaded != nil || body.text != nil || request.force }
        do {
            if request.producesText {
                let answer = try await actionClient.text(of: request.action, body, timeout: timeout)
                result.text = answer.text
                result.engine = answer.engine
                _ = try? cache?.store(
                    Data(answer.text.utf8), for: key, version: identity.version, metadata: ["engine": answer.engine])
            } else {
                let answer = try await actionClient.produce(request.action, body, timeout: timeout)
                result.engine = answer.engine
                result.outputBytes = answer.entry.size
                let produced = try RemotePath(root: body.root, path: answer.entry.path)
                if uploaded != nil || body.text != nil { producedOnServer = produced }
                if let destination = request.download {
                    onEvent?(.downloading(done: 0, total: answer.entry.size))
                    result.savedPath = try await download(
                        produced, size: answer.entry.size,
                        to: try localDestination(
                            destination, name: outputName(request.target, produced: answer.entry.name)),
                        force: request.force, label: label,
                        key: key, version: identity.version, onEvent: onEvent)
                } else {
                    result.remoteOutput = produced.description
                    // Asked to stay on the server.
                    if producedOnServer != nil, !request.keepRemote { producedOnServer = nil }
                }
            }
        } catch let error as OfficerError {
            if case .transport(let inner, _) = error, case .transport(_, TransportCode.timedOut, _) = inner {
                throw .timedOut(target: label, seconds: timeout)
            }
            if case .conflict(_, _, "exists") = error, body.overwrite != true, let input,
                let output = request.outputBeside(input)
            {
                throw .outputExists(target: label, output: output.description)
            }
            if case .badRequest(_, let message, "engine_failed") = error {
                // The engine's own words name it and the inbox copy: only what it said of the file is kept.
                let words =
                    message.range(of: "failed: ").map { String(message[$0.upperBound...]) }
                    ?? "the server gives no reason"
                throw .actionFailed(target: label, action: request.action, detail: words, error: error)
            }
            throw .server(target: label, error)
        } catch let error as RemoteActionError {
            throw error
        } catch {
            throw .localFile(path: label, message: "\(error)")
        }
        return result
    }

    /// The target's identity for the cache, after checking the action fits its kind.
    private func identify(_ request: RemoteActionRequest) async throws(RemoteActionError) -> (
        root: String, path: String, version: String
    ) {
        let label = request.target.description
        switch request.target {
        case .text(let text):
            guard request.action == .tts else {
                throw .unsupported(target: label, action: request.action, mime: "text/plain", viewer: .code)
            }
            let hasher = SHA256Hasher()
            hasher.update(Data(text.utf8))
            return ("text", "/" + hasher.finalizeHex(), "text")
        case .local(let path):
            var info = stat()
            guard stat(path, &info) == 0 else {
                throw .localFile(path: path, message: String(cString: strerror(errno)))
            }
            guard info.st_mode & S_IFMT == S_IFREG else { throw .notAFile(target: label) }
            let type: FileType
            do { type = try FileTypeDetector().detect(file: path) } catch {
                throw .localFile(path: path, message: "\(error)")
            }
            guard type.actions.contains(request.action) else {
                throw .unsupported(target: label, action: request.action, mime: type.mime, viewer: type.viewer)
            }
            do { return ("local-content", "/" + (try SHA256Hasher.hash(file: path)), "sha256") } catch {
                throw .localFile(path: path, message: "\(error)")
            }
        case .remote(let path):
            let entry: FileEntry
            do { entry = try await client.stat(path) } catch { throw .server(target: label, error) }
            guard !entry.isDirectory else { throw .notAFile(target: label) }
            let type = FileType(
                contentMIME: entry.mime ?? "application/octet-stream", charset: "", fileName: entry.name)
            guard type.actions.contains(request.action) else {
                throw .unsupported(target: label, action: request.action, mime: type.mime, viewer: type.viewer)
            }
            return (
                path.root, path.path, CacheKey.version(size: entry.size, modificationTime: Int64(entry.mtime * 1000))
            )
        }
    }

    private func ensureInbox(_ label: String) async throws(RemoteActionError) {
        do { _ = try await client.makeDirectory(inbox, parents: true) } catch {
            if case .conflict = error { return }
            throw .server(target: label, error)
        }
    }

    static func isHEIF(name: String) -> Bool {
        ["heic", "heif", "avif"].contains((name as NSString).pathExtension.lowercased())
    }

    /// A JPEG of `path` at full detail (OCR reads small print), beside the system's temp files.
    static func jpegForOCR(_ path: String, label: String) throws(RemoteActionError) -> String {
        var options = ImagePreparationOptions()
        options.maxEdge = 8192
        options.quality = 92
        options.format = .jpeg
        let output = NSTemporaryDirectory() + "/officer-files-ocr-\(UUID().uuidString).jpg"
        do {
            let prepared = try ImagePreparer(options: options).prepare(path, to: output)
            return prepared.usedOriginal ? path : output
        } catch {
            unlink(output)
            throw .localFile(path: label, message: "\(error)")
        }
    }

    private func upload(
        _ path: String, contentHash: Substring, label: String, onEvent: (@Sendable (RemoteActionEvent) -> Void)?
    ) async throws(RemoteActionError) -> RemotePath {
        try await ensureInbox(label)
        let name = Self.inboxName(for: path, contentHash: String(contentHash))
        // inboxName only returns names the rule accepts.
        guard let target = try? client.uploadTarget(name: name, into: inbox, mtime: nil, overwrite: true) else {
            throw .localFile(path: path, message: "no usable name for the server's inbox")
        }
        let total = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? 0
        do {
            _ = try await uploader.upload(file: path, to: target) { event in
                if case .progress(_, let sent) = event { onEvent?(.uploading(sent: sent, total: total)) }
            }
            return try inbox.appending(name)
        } catch let error as UploadError {
            throw .upload(target: label, error)
        } catch {
            throw .localFile(path: path, message: "\(error)")
        }
    }

    private func download(
        _ produced: RemotePath, size: Int64?, to destination: String, force: Bool, label: String, key: CacheKey,
        version: String,
        onEvent: (@Sendable (RemoteActionEvent) -> Void)?
    ) async throws(RemoteActionError) -> String {
        var options = DownloadOptions()
        options.force = force
        let url = client.rawURL(for: produced)
        let saved: DownloadResult
        do {
            // The parts summed and the total told, as every transfer's progress is (not one "0 of ?" per buffer).
            let tracker = TransferTracker()
            saved = try await downloader.download(
                from: url, credential: client.credential, to: destination, options: options
            ) { event in
                let progress = tracker.apply(event)
                guard case .progress = event else { return }
                onEvent?(.downloading(done: progress.doneBytes, total: progress.totalBytes ?? size))
            }
        } catch {
            throw .download(target: label, error)
        }
        if let cache, saved.bytes <= cache.automaticEntryLimit {
            _ = try? cache.store(
                contentsOf: saved.path, for: key, version: version, metadata: ["produced": produced.name])
        }
        return saved.path
    }

    /// A file path as given, or `name` inside a folder given (an existing folder, or a path ending in `/`, created).
    private func localDestination(_ destination: String, name: String) throws(RemoteActionError) -> String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination, isDirectory: &isDirectory), isDirectory.boolValue {
            return (destination as NSString).appendingPathComponent(name)
        }
        if destination.hasSuffix("/") {
            do { try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true) } catch
            {
                throw .localFile(
                    path: destination, message: "cannot create the folder: \((error as NSError).localizedDescription)")
            }
            return (destination as NSString).appendingPathComponent(name)
        }
        return destination
    }

    /// The local name of a produced file: the target's own name with the output's extension (`notes.txt` →
    /// `notes.wav`), not the inbox name, which carries a content hash.
    private func outputName(_ target: ActionTarget, produced: String) -> String {
        guard case .local(let path) = target else { return produced }
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let ext = (produced as NSString).pathExtension
        return ext.isEmpty ? base : base + "." + ext
    }

    /// The inbox copy's name: unique by content, keeping the local name (and its extension, which tells the server
    /// the kind) when that name passes the name rule, else only the extension.
    static func inboxName(for path: String, contentHash: String) -> String {
        let prefix = String(contentHash.prefix(16))
        let original = (path as NSString).lastPathComponent
        if FileName.isValid(prefix + "-" + original) { return prefix + "-" + original }
        let ext = (original as NSString).pathExtension
        return FileName.isValid(prefix + "." + ext) ? prefix + "." + ext : prefix
    }

    /// An action may work for minutes without sending a byte: the stall timeout becomes the action's timeout.
    private func longRunningHTTP() -> HTTPClient {
        var configuration = client.http.configuration
        configuration.stallTimeout = timeout
        // The server computes for up to `timeout` before its first byte: no speed to measure until then.
        configuration.lowSpeedWindow = max(configuration.lowSpeedWindow, timeout)
        configuration.totalTimeout = timeout
        return HTTPClient(configuration: configuration)
    }
}

import FileModel
import Foundation
import HTTP
import Officer
import Transfer

extension CommandContext {
    /// The library's front door for the configured server, set up from this run's options: the server and token
    /// (``client()``'s rules), the HTTP settings, the standard journal and cache (none with `--no-cache`), the
    /// cache limit and the default root. With no server configured it has none: local files, plain URLs, the
    /// cache and the journal still work, and an Officer operation says how to name a server. `bandwidthLimit`
    /// (`--bwlimit` of a sync, a copy or a watch) is kept by all of its requests together.
    func files(bandwidthLimit: Int64? = nil) throws -> OfficerFiles {
        var configuration: OfficerFiles.Configuration
        do {
            let (server, tokens) = try account()
            configuration = .standard(server: server, tokens: tokens, environment: environment)
        } catch CLIError.noServer {
            configuration = .standard(server: nil, tokens: MemoryTokenStore(), environment: environment)
        }
        configuration.http = httpClient().configuration
        configuration.http.bandwidth = bandwidthLimit.map { SharedBandwidth(bytesPerSecond: $0) }
        configuration.cacheLimit = try cacheLimit()
        if global.noCache {
            if global.offline { throw CLIError.usage("--offline answers from the cache: it cannot go with --no-cache") }
            configuration.cacheDirectory = nil
        }
        configuration.defaultRoot = defaultRoot
        // A script asks for the cache with --offline; an unreachable server is an error (ls hints at --offline).
        configuration.listsFromCacheWhenUnreachable = false
        configuration.objectStores = try objectStoreRemotes().values.sorted { $0.name < $1.name }
        configuration.registeredRemotes = registeredRemotes
        configuration.officerRemotes = (try configStore.load().officers ?? [:]).map {
            OfficerRemote(name: $0.key, server: $0.value.server)
        }
        .sorted { $0.name < $1.name }
        let console = console
        configuration.onWarning = { console.message("warning: " + $0) }
        let files = try OfficerFiles(configuration: configuration)
        if let client = try? files.client, client.isInsecureRemote, client.token != nil, !global.quiet {
            console.message(
                "warning: \(client.server) is plain http to another machine: your token can be read on the way")
        }
        return files
    }

    /// Opens the front door's cache now, to say what it repaired or why it is not used (a broken cache never
    /// stops a transfer; offline it is the only source, and for `cache` the subject, so there its failure is the
    /// command's).
    func announceCache(_ files: OfficerFiles, required: Bool = false) throws {
        let cache: ContentCache?
        do {
            cache = try files.cache()
        } catch {
            if global.offline || required { throw error }
            console.message("warning: cache not used: " + describe(error))
            return
        }
        if let cache { reportOpening(cache) }
    }

    /// Shows a front-door operation's events on `display` and returns its value.
    func show<Success: Sendable, Failure: Error>(
        _ operation: ProgressOperation<TransferEvent, Success, Failure>, on display: PartsDisplay
    ) async throws
        -> Success
    {
        for await event in operation { display.handle(event) }
        do {
            let value = try await operation.value
            display.finish(failed: false)
            return value
        } catch {
            display.finish(failed: true)
            throw error
        }
    }

    /// A path or location as JSON names it (``fullLocation(_:)``); `-` (standard input or output) as it is.
    func shownLocation(_ argument: String) -> String {
        argument == "-" ? argument : (try? fullLocation(argument)) ?? argument
    }

    /// An argument as the full location JSON names it: a remote's location string, a local path made absolute.
    func fullLocation(_ argument: String) throws -> String { fullLocation(try self.location(argument)) }

    /// A parsed location as the full location JSON names it.
    func fullLocation(_ location: Location) -> String {
        guard case .local(let path) = location else { return location.description }
        // An absolute path with no empty, `.` or `..` component is its own standard form; Foundation's URL
        // costs more than an `info` over thousands of files can spare.
        return Self.isStandardAbsolute(path) ? path : URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// Whether `path` starts with `/` and has no empty, `.` or `..` component after it (read by byte: one pass,
    /// nothing allocated).
    static func isStandardAbsolute(_ path: String) -> Bool {
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        guard path.utf8.first == slash, path.utf8.count > 1 else { return false }
        // The current component's length, and whether it is only dots so far.
        var length = 0
        var dotsOnly = true
        for byte in path.utf8.dropFirst() {
            if byte == slash {
                if length == 0 || (dotsOnly && length <= 2) { return false }
                (length, dotsOnly) = (0, true)
            } else {
                length += 1
                dotsOnly = dotsOnly && byte == dot
            }
        }
        return !(length == 0 || (dotsOnly && length <= 2))
    }
}

import FileModel
import Foundation
import HTTP
import Officer
import Transfer

extension CommandContext {
    /// The library's front door for the configured server, set up from this run's options: the server and token
    /// (``client()``'s rules), the HTTP settings, the standard journal and cache (none with `--no-cache`), the
    /// cache limit and the default root.
    func files() throws -> OfficerFiles {
        let client = try client()
        // The token as client() chose it: OFFICER_TOKEN (kept in memory), else the config file's for its server.
        let tokens: any TokenStore =
            environment["OFFICER_TOKEN"].map { !$0.isEmpty } == true
            ? MemoryTokenStore(server: client.server, token: client.token) : ConfigTokenStore(store: configStore)
        var configuration = OfficerFiles.Configuration.standard(server: client.server, tokens: tokens, environment: environment)
        configuration.http = client.http.configuration
        configuration.cacheLimit = try cacheLimit()
        if global.noCache {
            if global.offline { throw CLIError.usage("--offline answers from the cache: it cannot go with --no-cache") }
            configuration.cacheDirectory = nil
        }
        configuration.defaultRoot = defaultRoot
        return try OfficerFiles(configuration: configuration)
    }

    /// The front door for the journal's commands (`transfers`): the configured server's, or, with none configured,
    /// one without a token, which still resumes and cleans downloads of plain URLs.
    func filesForJournal() throws -> OfficerFiles {
        do {
            return try files()
        } catch CLIError.noServer {
            var configuration = OfficerFiles.Configuration.standard(server: "http://127.0.0.1", tokens: MemoryTokenStore(), environment: environment)
            configuration.http = httpClient().configuration
            configuration.cacheDirectory = nil
            return try OfficerFiles(configuration: configuration)
        }
    }

    /// Opens the front door's cache now, to say what it repaired or why it is not used (a broken cache never
    /// stops a transfer; offline it is the only source, so there its failure is the command's).
    func announceCache(_ files: OfficerFiles) throws {
        let cache: ContentCache?
        do {
            cache = try files.cache()
        } catch {
            if global.offline { throw error }
            console.message("warning: cache not used: \(error)")
            return
        }
        if let cache { reportOpening(cache) }
    }

    /// Shows a front-door operation's events on `display` and returns its value.
    func show<Success: Sendable>(_ operation: TransferOperation<Success>, on display: PartsDisplay) async throws -> Success {
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
}

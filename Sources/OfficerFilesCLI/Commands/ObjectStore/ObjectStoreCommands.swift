import FileModel
import Foundation
import HTTP
import Officer
import Preview
import Transfer

/// The file commands on object-store paths (`NAME:bucket/key`): each command sends such paths here, the
/// library's ``ObjectStore`` does the work, and this renders it as the Officer forms are rendered.
enum ObjectStoreCommands {
    /// `ls NAME:` (buckets), `ls NAME:bucket/folder` (one level, folders end in `/`), `-R` for everything below.
    static func list(_ paths: [ObjectStorePath], _ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let files = try context.files()
        for (index, path) in paths.enumerated() {
            let store = try context.objectStore(for: path, files: files)
            if paths.count > 1, !context.global.json { context.console.print((index > 0 ? "\n" : "") + "\(path):") }
            let prefix = path.folderPrefix
            for try await entry in store.list(path, recursive: parsed.flag("recursive")) {
                if context.global.json {
                    context.printJSON(Row(entry))
                    continue
                }
                var name = entry.path.isBucket ? entry.path.bucket : String(entry.path.key.dropFirst(entry.path.key.hasPrefix(prefix) ? prefix.count : 0))
                if entry.isFolder, name.hasSuffix("/") { name.removeLast() }
                let shown = TerminalText.escaped(name) + (entry.isFolder ? "/" : "")
                guard parsed.flag("long") else {
                    context.console.print(shown)
                    continue
                }
                let size = String(entry.size)
                let date = entry.mtime.map { EntryFormatter.date($0) } ?? String(repeating: " ", count: 16)
                context.console.print(String(repeating: " ", count: max(0, 12 - size.count)) + size + "  " + date + "  " + shown)
            }
        }
    }

    /// `stat`: size, the file's own time, ETag, SHA-256 and type from a HEAD.
    static func stat(_ paths: [ObjectStorePath], _ context: CommandContext) async throws {
        let files = try context.files()
        for path in paths {
            let entry = try await context.objectStore(for: path, files: files).stat(path)
            if context.global.json {
                context.printJSON(Row(entry))
                continue
            }
            var lines = [
                "    Path: \(entry.path)",
                "    Type: \(entry.isFolder ? (entry.path.isBucket ? "bucket" : "folder") : "file")",
            ]
            if !entry.isFolder {
                lines.append("    Size: \(entry.size) (\(ByteCountFormat.string(entry.size)))")
                if let mtime = entry.mtime { lines.append("Modified: \(EntryFormatter.date(mtime)) UTC (\(mtime))") }
                lines.append("    ETag: \(entry.etag ?? "-")")
                lines.append("  SHA256: \(entry.sha256 ?? "-")")
                lines.append("    MIME: \(entry.contentType ?? "-")")
            }
            context.console.print(lines.joined(separator: "\n"))
        }
    }

    /// `mkdir NAME:bucket`: creates buckets.
    static func makeBuckets(_ paths: [ObjectStorePath], parents: Bool, _ context: CommandContext) async throws {
        let files = try context.files()
        try await BatchRunner.run(paths, context: context) { path in
            try await context.objectStore(for: path, files: files).makeBucket(path, existingIsFine: parents)
            if context.global.verbose { context.say("created \(path)") }
        }
    }

    /// `rm [-r] [-f]`.
    static func remove(_ paths: [ObjectStorePath], _ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let files = try context.files()
        try await BatchRunner.run(paths, context: context) { path in
            do {
                let removed = try await context.objectStore(for: path, files: files).remove(path, recursive: parsed.flag("recursive"))
                if context.global.verbose { context.say("removed \(path) (\(removed) objects)") }
            } catch let error as ObjectStoreError where parsed.flag("force") {
                switch error {
                case .noSuchKey, .noSuchBucket: return
                default: throw error
                }
            }
        }
    }

    /// `mv`/`cp` inside one S3 remote: server-side copies (and, for a move, removal once each copy is confirmed).
    static func relocate(_ move: Bool, _ paths: [ObjectStorePath], _ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let files = try context.files()
        let destination = paths.last!
        let store = try context.objectStore(for: destination, files: files)
        let sources = Array(paths.dropLast())
        if sources.count > 1, !destination.isBucket, !destination.key.hasSuffix("/"), (try? await store.stat(destination))?.isFolder != true {
            throw CLIError.usage("with several sources, \(destination) must be an existing folder or end with /")
        }
        try await BatchRunner.run(sources, context: context) { source in
            let done =
                move
                ? try await store.move(source, to: destination, overwrite: parsed.flag("force"))
                : try await store.copy(source, to: destination, overwrite: parsed.flag("force"), recursive: parsed.flag("recursive"))
            if context.global.verbose { context.say("\(source) -> \(done.target) (\(done.objects) objects)") }
        }
    }

    /// `get NAME:bucket/key [DEST]`.
    static func get(_ path: ObjectStorePath, destination argument: String?, options: DownloadOptions, _ context: CommandContext) async throws {
        let files = try context.files()
        let store = try context.objectStore(for: path, files: files)
        let source = DownloadSource(url: "", suggestedName: DownloadSource.safeName(path.name, fallback: "download"))
        let destination = source.destination(for: argument)
        let started = Date()
        let reporter = context.progressReporter()
        defer { reporter.close() }
        let display = PartsDisplay(reporter: reporter, name: (destination as NSString).lastPathComponent, context: context)
        let result = try await context.show(store.download(path, to: destination, options: options), on: display)
        GetCommand.report(result, started, context)
    }

    /// `put LOCAL... NAME:bucket/[key]`.
    static func put(_ locals: [String], to path: ObjectStorePath, options: UploadOptions, _ parsed: ParsedCommand, _ context: CommandContext) async throws {
        if locals.count > 1, !path.isBucket, !path.key.hasSuffix("/") {
            throw CLIError.usage("\(path): several files go into a bucket or a folder: end it with /")
        }
        let files = try context.files()
        let store = try context.objectStore(for: path, files: files)
        let reporter = context.progressReporter()
        defer { reporter.close() }
        try await BatchRunner.run(locals, context: context) { local in
            let target = try await store.uploadDestination(of: local, to: path)
            let display = PartsDisplay(reporter: reporter, name: (local as NSString).lastPathComponent, context: context)
            let started = Date()
            let result: UploadResult
            do {
                result = try await context.show(store.upload(local, to: path, force: parsed.flag("force"), options: options), on: display)
            } catch {
                throw UploadReport.explained(error, shown: local)
            }
            UploadReport.finished(
                result, shown: local, destination: target.description, seconds: Date().timeIntervalSince(started), reporter: reporter, context: context)
        }
    }

    /// `cat NAME:bucket/key...` to stdout.
    static func cat(_ paths: [ObjectStorePath], bandwidthLimit: Int64?, _ context: CommandContext) async throws {
        let files = try context.files()
        for path in paths {
            _ = try await context.objectStore(for: path, files: files).stream(path, to: 1, bandwidthLimit: bandwidthLimit)
        }
    }

    /// `info NAME:bucket/key`: facts from the first bytes.
    static func facts(_ path: ObjectStorePath, _ context: CommandContext) async throws -> FileFacts {
        try await context.objectStore(for: path).facts(of: path)
    }

    /// `sync`/`copy` between a local folder and an object-store folder.
    static func syncSide(_ path: ObjectStorePath, _ context: CommandContext, files: OfficerFiles) throws -> any SyncRemote {
        try context.objectStore(for: path, files: files).syncRemote(path)
    }

    /// One entry as JSON.
    struct Row: Encodable {
        var path: String
        var type: String
        var size: Int64
        var mtime: Double?
        var etag: String?
        var sha256: String?

        init(_ entry: ObjectEntry) {
            path = entry.path.description
            type = entry.isFolder ? (entry.path.isBucket ? "bucket" : "directory") : "file"
            size = entry.size
            mtime = entry.mtime
            etag = entry.etag
            sha256 = entry.sha256
        }
    }
}

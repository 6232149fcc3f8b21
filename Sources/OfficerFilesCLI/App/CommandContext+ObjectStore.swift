import FileModel
import Foundation
import Officer
import Transfer

extension CommandContext {
    /// The configured object-store remotes.
    func objectStoreRemotes() throws -> [String: ObjectStoreRemote] {
        try configStore.load().remotes ?? [:]
    }

    /// The commands that take `NAME:bucket/path` arguments; every other one refuses them in one line, instead of
    /// taking `backup:photos/x` for an Officer or a local path.
    static let objectStoreCommands: Set<String> = [
        "ls", "mkdir", "rm", "stat", "info", "sync", "copy", "cat", "get", "put", "mv", "cp", "transfers", "remote",
    ]

    /// Refuses, for a command that does not take them, an argument naming a configured S3 remote.
    func refuseObjectStorePaths(_ arguments: [String], command: [String]) throws {
        guard let first = command.first, !Self.objectStoreCommands.contains(first) else { return }
        for argument in arguments {
            guard case .object(let path)? = try? location(argument) else { continue }
            let name = command.joined(separator: " ")
            throw CLIError.refused(
                "\(name) \(argument): \(path.remote) is an S3 remote; \(name) works on Officer paths and local files",
                .refused)
        }
    }
}

extension CommandContext {
    /// What an argument names, parsed once by the library's rule with the configured remotes' names; a plain
    /// path is read as this command reads it (``plainPaths``) unless `plain` says otherwise.
    func location(_ argument: String, plain: Location.PlainPath? = nil) throws -> Location {
        try locations([argument], plain: plain)[0]
    }

    /// ``location(_:plain:)`` of each argument, the configuration read once (`info` may be given thousands).
    func locations(_ arguments: [String], plain: Location.PlainPath? = nil) throws -> [Location] {
        let config = try configStore.load()
        let officerRemotes = Set((config.officers ?? [:]).keys)
        let objectRemotes = Set((config.remotes ?? [:]).keys).union(registeredRemotes.keys)
        let (root, plain) = (defaultRoot, plain ?? plainPaths)
        return try arguments.map { argument in
            try Location(
                parsing: argument, officerRemotes: officerRemotes, objectRemotes: objectRemotes, defaultRoot: root,
                plain: plain)
        }
    }

    /// How this command reads a plain path: on the default Officer server for the commands that take only
    /// remote paths (``plainPathsAreOfficer``), else on this machine.
    var plainPaths: Location.PlainPath { Self.plainPathsAreOfficer.contains(invokedCommand ?? "") ? .officer : .local }
}

extension CommandContext {
    /// The commands that take only remote paths, where a plain `/path` names a path on the default Officer
    /// server (the README says so of them; `CLIDocumentationTests` keeps the two lists equal).
    package static let plainPathsAreOfficer: Set<String> = [
        "ls", "stat", "mkdir", "rm", "mv", "cp", "search", "cat", "cache",
    ]

    /// The commands whose locations may be on different servers (each side goes to its own).
    static let locationCommands: Set<String> = ["sync", "copy"]

    /// The named Officer remote a command works on: `login work`, or the one its `work:/…` paths name (a command
    /// that is not a sync takes one server; mixing two is refused in one line).
    func officerRemote(of parsed: ParsedCommand) throws -> String? {
        let names = officerRemoteNames
        guard let command = parsed.path.first, !names.isEmpty else { return nil }
        if ["login", "logout", "whoami"].contains(command) {
            guard let name = parsed.positionals.first else { return nil }
            guard names.contains(name) || name == "officer" else {
                throw CLIError.usage("\(name): no such Officer remote; see officer-files remote list")
            }
            return name == "officer" ? nil : name
        }
        if Self.locationCommands.contains(command) { return nil }
        var servers: [String?: String] = [:]
        for argument in parsed.positionals where isOfficerPath(argument) {
            let path = try remotePath(argument)
            servers[path.remote] = argument
        }
        // Where a plain path is an Officer path, it is on the default server: beside a work: path it is a second one.
        if Self.plainPathsAreOfficer.contains(command) {
            let paths = command == "search" ? Array(parsed.positionals.dropFirst()) : parsed.positionals
            for argument in paths where !isOfficerPath(argument) && !argument.contains(":") { servers[nil] = argument }
        }
        if servers.keys.contains(where: { $0 != nil }), parsed.flag("queue") {
            throw CLIError.usage(
                "--queue works on the default server's paths (officer:/…); a named remote's changes are not queued")
        }
        guard servers.count <= 1 else {
            let shown = servers.values.sorted().joined(separator: " and ")
            throw CLIError.usage("\(shown) are on different Officer servers; officer-files sync copies between servers")
        }
        return servers.keys.first ?? nil
    }
}

extension CommandContext {
    /// `arguments` with each remote one whose last name is a pattern replaced by the locations it matches
    /// (``OfficerFiles/expand(_:)``); local paths, URLs and options stay as written (a shell expands local
    /// patterns itself).
    func expandingPatterns(_ arguments: [String], plain: Location.PlainPath, nothingIsFine: Bool = false) async throws
        -> [String]
    {
        guard arguments.contains(where: { GlobPattern.hasWildcards(FileName.last(ofPath: $0)) }) else {
            return arguments
        }
        let files = try files()
        var expanded: [String] = []
        for argument in arguments {
            guard let location = try? location(argument, plain: plain), location.isRemote, !location.isWebAddress,
                GlobPattern.hasWildcards(location.name)
            else {
                expanded.append(argument)
                continue
            }
            do {
                expanded += try await files.expand(location).map(\.description)
            } catch FrontDoorRefusal.noMatch(_) where nothingIsFine {
                continue
            }
        }
        return expanded
    }
}

import FileModel
import Foundation
import Officer
import Transfer

/// `remote add|list|remove`: named Officer servers and S3-compatible remotes, kept in the 0600 configuration.
enum RemoteCommand: Command {
    static let spec = CommandSpec(
        "remote",
        summary: "add, list or remove named Officer servers (NAME:/path) and S3-compatible remotes (NAME:bucket/path)",
        discussion: """
            An Officer remote names another Officer server (work beside home, dev beside prod): `remote add work
            --officer https://files.work.example`, then `officer-files login work --email EMAIL`; its paths are
            written work:/path (or work:ROOT:/path) and every command takes them; each server has its own token.
            A command works on one server; sync and copy go between servers (sync officer:/a work:/a).

            An S3 remote names an S3-compatible object store (AWS, MinIO, Ceph, OpenStack Swift): its endpoint,
            region, addressing and keys. The secret key is read from the terminal without echo, or from one line
            of stdin with --secret-stdin; it is never taken from the command line, and it is kept in the 0600
            configuration file. `remote add` signs a ListBuckets with the keys first (--no-check skips that).
            Paths on it are written NAME:bucket/path; ls, stat, mkdir (a bucket), rm, get, put, cat, info,
            sync and copy take them. `remote` alone is `remote list`.
            """,
        subcommands: [
            CommandSpec(
                "add", summary: "add (or replace) a remote",
                options: [
                    OptionSpec(
                        ["--officer"], .value(placeholder: "URL"),
                        help: "another Officer server at URL (http(s)://host[:port])"),
                    OptionSpec(["--s3"], help: "an S3-compatible object store"),
                    OptionSpec(
                        ["--endpoint"], .value(placeholder: "URL"),
                        help: "http(s)://host[:port] of the store (required)"),
                    OptionSpec(
                        ["--region"], .value(placeholder: "REGION"), help: "region signed for (default us-east-1)"),
                    OptionSpec(["--access-key"], .value(placeholder: "ID"), help: "access key id (required)"),
                    OptionSpec(["--secret-stdin"], help: "read the secret key from the first line of stdin"),
                    OptionSpec(["--virtual-host"], help: "buckets in the host name (bucket.host) instead of the path"),
                    OptionSpec(["--no-check"], help: "save without checking the keys against the store"),
                    OptionSpec(["--force", "-f"], help: "replace a remote of the same name"),
                ],
                positionals: [
                    PositionalSpec("NAME", help: "the name paths use: NAME:/path (Officer) or NAME:bucket/path (S3)")
                ]),
            CommandSpec("list", summary: "the remotes (secrets never shown)"),
            CommandSpec(
                "remove", summary: "forget remotes",
                positionals: [PositionalSpec("NAME", help: "remote name", variadic: true)]),
        ],
        defaultSubcommand: "list")

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        switch parsed.path.last {
        case "add": try await add(parsed, context)
        case "remove":
            var config = try context.configStore.load()
            for name in parsed.positionals {
                guard config.remotes?[name] != nil || config.officers?[name] != nil else {
                    throw CLIError.usage("\(name): no such remote; see officer-files remote list")
                }
                config.remotes?[name] = nil
                config.officers?[name] = nil
                try context.configStore.save(config)
                if context.global.json {
                    context.printJSON(RemoteRemovedRecord(name: name))
                } else {
                    context.say("removed remote \(name)")
                }
            }
        default:
            let config = try context.configStore.load()
            let remotes = (config.remotes ?? [:]).values.sorted { $0.name < $1.name }
            let officers = (config.officers ?? [:]).sorted { $0.key < $1.key }
            if context.global.json {
                if let server = try? context.serverURL(config: config), context.officerRemote == nil {
                    context.printJSON(
                        RemoteRecord(
                            name: "officer", kind: "officer", endpoint: server, isDefault: true,
                            signedIn: config.server.map {
                                ConfigTokenStore.normalized($0) == ConfigTokenStore.normalized(server)
                                    && config.token != nil
                            } ?? false,
                            email: config.email))
                }
                for (name, profile) in officers {
                    context.printJSON(
                        RemoteRecord(
                            name: name, kind: "officer", endpoint: profile.server, isDefault: false,
                            signedIn: profile.token != nil, email: profile.email))
                }
                for remote in remotes {
                    context.printJSON(
                        RemoteRecord(
                            name: remote.name, kind: "s3", endpoint: remote.endpoint, isDefault: false,
                            region: remote.region,
                            pathStyle: remote.pathStyle, accessKey: remote.accessKey))
                }
            } else if remotes.isEmpty, officers.isEmpty, (try? context.serverURL(config: config)) == nil {
                context.say("No remotes; officer-files help remote tells how to add one.")
            } else {
                // The default server first, as --json lists it: `officer:` is a remote like the others.
                if let server = try? context.serverURL(config: config), context.officerRemote == nil {
                    let signedIn =
                        config.token != nil
                        && config.server.map { ConfigTokenStore.normalized($0) == ConfigTokenStore.normalized(server) }
                            == true
                    context.console.print(
                        "officer: officer \(server) (default)\(signedIn ? config.email.map { " as " + $0 } ?? "" : " (not logged in)")"
                    )
                }
                for (name, profile) in officers {
                    context.console.print(
                        "\(name): officer \(profile.server)\(profile.token == nil ? " (not logged in)" : profile.email.map { " as " + $0 } ?? "")"
                    )
                }
                for remote in remotes {
                    context.console.print(
                        "\(remote.name): s3 \(remote.endpoint) region \(remote.region)\(remote.pathStyle ? "" : " virtual-host") key \(remote.accessKey)"
                    )
                }
            }
        }
    }

    static func add(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let name = parsed.positionals[0]
        try ObjectStoreRemote.checkName(name)
        var config = try context.configStore.load()
        if config.remotes?[name] != nil || config.officers?[name] != nil, !parsed.flag("force") {
            throw CLIError.refused("\(name): a remote of that name exists; add --force to replace it", .conflict)
        }
        if let server = parsed.value("officer") {
            if parsed.flag("s3") { throw CLIError.usage("remote add \(name): --officer or --s3, not both") }
            guard let components = URLComponents(string: server),
                ["http", "https"].contains(components.scheme?.lowercased() ?? ""),
                components.host?.isEmpty == false
            else {
                throw CLIError.usage("remote add \(name): --officer \(server): give the server's http(s)://host[:port]")
            }
            var officers = config.officers ?? [:]
            officers[name] = OfficerProfile(server: server.hasSuffix("/") ? String(server.dropLast()) : server)
            config.officers = officers
            config.remotes?[name] = nil
            try context.configStore.save(config)
            if context.global.json {
                context.printJSON(
                    RemoteRecord(
                        name: name, kind: "officer", endpoint: officers[name]!.server, isDefault: false, signedIn: false
                    ))
                return
            }
            context.say(
                "Added Officer remote \(name) (\(server)); officer-files login \(name) --email EMAIL signs in; paths: \(name):/path"
            )
            return
        }
        guard parsed.flag("s3") else {
            throw CLIError.usage("remote add \(name): say what kind of remote it is: --officer URL or --s3")
        }
        guard let endpoint = parsed.value("endpoint") else {
            throw CLIError.usage("remote add \(name): --endpoint URL is required")
        }
        guard let accessKey = parsed.value("access-key"), !accessKey.isEmpty else {
            throw CLIError.usage("remote add \(name): --access-key ID is required")
        }
        let region = parsed.value("region") ?? "us-east-1"
        let endpointValue = try ObjectStoreEndpoint(
            url: endpoint, region: region, pathStyle: !parsed.flag("virtual-host"))
        let secret = try PasswordPrompt.secret(
            standardInput: parsed.flag("secret-stdin"), prompt: "Secret key for \(accessKey) at \(endpointValue.url): ",
            flag: "--secret-stdin", what: "secret key")
        let remote = ObjectStoreRemote(
            name: name, endpoint: endpointValue.url, region: region, pathStyle: endpointValue.pathStyle,
            accessKey: accessKey, secretKey: secret)
        if !parsed.flag("no-check") {
            let store = try context.files().objectStore(remote)
            let buckets = try await store.client.listBuckets()
            if context.global.verbose { context.say("\(name): the keys work (\(buckets.count) buckets)") }
        }
        var remotes = config.remotes ?? [:]
        remotes[name] = remote
        config.remotes = remotes
        config.officers?[name] = nil
        try context.configStore.save(config)
        if context.global.json {
            context.printJSON(
                RemoteRecord(
                    name: name, kind: "s3", endpoint: remote.endpoint, isDefault: false, region: remote.region,
                    pathStyle: remote.pathStyle,
                    accessKey: remote.accessKey))
            return
        }
        context.say("Added remote \(name) (\(remote.endpoint)); paths: \(name):BUCKET/path")
    }
}

import FileModel
import Foundation
import Officer
import Transfer

/// `remote add|list|remove`: named S3-compatible remotes, kept in the 0600 configuration.
enum RemoteCommand: Command {
    static let spec = CommandSpec(
        "remote", summary: "add, list or remove S3-compatible remotes (NAME:bucket/path)",
        discussion: """
            A remote names an S3-compatible object store (AWS, MinIO, Ceph, OpenStack Swift): its endpoint,
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
                    OptionSpec(["--s3"], help: "an S3-compatible object store (the only kind so far)"),
                    OptionSpec(["--endpoint"], .value(placeholder: "URL"), help: "http(s)://host[:port] of the store (required)"),
                    OptionSpec(["--region"], .value(placeholder: "REGION"), help: "region signed for (default us-east-1)"),
                    OptionSpec(["--access-key"], .value(placeholder: "ID"), help: "access key id (required)"),
                    OptionSpec(["--secret-stdin"], help: "read the secret key from the first line of stdin"),
                    OptionSpec(["--virtual-host"], help: "buckets in the host name (bucket.host) instead of the path"),
                    OptionSpec(["--no-check"], help: "save without checking the keys against the store"),
                    OptionSpec(["--force", "-f"], help: "replace a remote of the same name"),
                ],
                positionals: [PositionalSpec("NAME", help: "the name paths use: NAME:bucket/path")]),
            CommandSpec("list", summary: "the remotes (secrets never shown)"),
            CommandSpec("remove", summary: "forget remotes", positionals: [PositionalSpec("NAME", help: "remote name", variadic: true)]),
        ],
        defaultSubcommand: "list")

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        switch parsed.path.last {
        case "add": try await add(parsed, context)
        case "remove":
            var config = try context.configStore.load()
            for name in parsed.positionals {
                guard config.remotes?[name] != nil else { throw CLIError.usage("\(name): no such remote; see officer-files remote list") }
                config.remotes?[name] = nil
                try context.configStore.save(config)
                context.say("removed remote \(name)")
            }
        default:
            let remotes = (try context.configStore.load().remotes ?? [:]).values.sorted { $0.name < $1.name }
            if context.global.json {
                context.printJSON(remotes.map { Row(name: $0.name, type: "s3", endpoint: $0.endpoint, region: $0.region, pathStyle: $0.pathStyle, accessKey: $0.accessKey) })
            } else if remotes.isEmpty {
                context.say("No remotes; officer-files help remote tells how to add one.")
            } else {
                for remote in remotes {
                    context.console.print("\(remote.name): s3 \(remote.endpoint) region \(remote.region)\(remote.pathStyle ? "" : " virtual-host") key \(remote.accessKey)")
                }
            }
        }
    }

    static func add(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let name = parsed.positionals[0]
        try ObjectStoreRemote.checkName(name)
        guard parsed.flag("s3") else { throw CLIError.usage("remote add \(name): say what kind of remote it is: --s3") }
        guard let endpoint = parsed.value("endpoint") else { throw CLIError.usage("remote add \(name): --endpoint URL is required") }
        guard let accessKey = parsed.value("access-key"), !accessKey.isEmpty else {
            throw CLIError.usage("remote add \(name): --access-key ID is required")
        }
        var config = try context.configStore.load()
        if config.remotes?[name] != nil, !parsed.flag("force") {
            throw CLIError.refused("\(name): a remote of that name exists; add --force to replace it", .conflict)
        }
        let region = parsed.value("region") ?? "us-east-1"
        let endpointValue = try ObjectStoreEndpoint(url: endpoint, region: region, pathStyle: !parsed.flag("virtual-host"))
        let secret = try PasswordPrompt.secret(
            standardInput: parsed.flag("secret-stdin"), prompt: "Secret key for \(accessKey) at \(endpointValue.url): ", flag: "--secret-stdin", what: "secret key")
        let remote = ObjectStoreRemote(
            name: name, endpoint: endpointValue.url, region: region, pathStyle: endpointValue.pathStyle, accessKey: accessKey, secretKey: secret)
        if !parsed.flag("no-check") {
            let store = try context.files().objectStore(remote)
            let buckets = try await store.client.listBuckets()
            if context.global.verbose { context.say("\(name): the keys work (\(buckets.count) buckets)") }
        }
        var remotes = config.remotes ?? [:]
        remotes[name] = remote
        config.remotes = remotes
        try context.configStore.save(config)
        context.say("Added remote \(name) (\(remote.endpoint)); paths: \(name):BUCKET/path")
    }

    struct Row: Encodable {
        var name: String
        var type: String
        var endpoint: String
        var region: String
        var pathStyle: Bool
        var accessKey: String
    }
}

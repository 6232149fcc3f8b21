/// Options every command accepts.
package struct GlobalOptions: Sendable {
    /// Their declarations, for the parser and help.
    package static let specs: [OptionSpec] = [
        OptionSpec(
            ["--server"], .value(placeholder: "URL"),
            help: "Officer server URL (default: OFFICER_SERVER, then the config)"),
        OptionSpec(["--root"], .value(placeholder: "NAME"), help: "root for paths that name none (default: home)"),
        OptionSpec(["--json"], help: "machine-readable output (JSON, or NDJSON for streams and progress)"),
        OptionSpec(["--quiet", "-q"], help: "print only errors"),
        OptionSpec(["--verbose", "-v"], help: "log each HTTP request and response to stderr (secrets redacted)"),
        OptionSpec(["--no-progress"], help: "no progress display"),
        OptionSpec(["--insecure"], help: "do not verify TLS certificates (dangerous)"),
        OptionSpec(["--cacert"], .value(placeholder: "FILE"), help: "trust the CA certificates in FILE (PEM)"),
        OptionSpec(["--offline"], help: "no network: answer from the cache (ls, cat, get, info, cache ls)"),
        OptionSpec(["--no-cache"], help: "neither read nor fill the cache"),
        OptionSpec(
            ["--cache-limit"], .value(placeholder: "SIZE"),
            help: "cache size limit, e.g. 500M (default: OFFICER_CACHE_LIMIT, then 1G)"),
        OptionSpec(
            ["--speed-limit"], .value(placeholder: "RATE"),
            help: "a transfer slower than RATE for --speed-time fails (default 1K)"),
        OptionSpec(
            ["--speed-time"], .value(placeholder: "SECONDS"),
            help: "the window --speed-limit is measured over (default 60)"),
        OptionSpec(["--version"], help: "print the version and exit"),
    ]

    /// `--server`.
    package var server: String?
    /// `--root`.
    package var root: String?
    /// `--json`.
    package var json: Bool
    /// `-q`.
    package var quiet: Bool
    /// `-v`.
    package var verbose: Bool
    /// `--no-progress`.
    package var noProgress: Bool
    /// `--insecure`.
    package var insecure: Bool
    /// `--cacert`.
    package var caCertificate: String?
    /// `--offline`.
    package var offline: Bool
    /// `--no-cache`.
    package var noCache: Bool
    /// `--cache-limit`, as given.
    package var cacheLimit: String?
    /// `--speed-limit`, as given.
    package var speedLimit: String?
    /// `--speed-time`, as given.
    package var speedTime: String?

    /// Reads the global options out of a parsed command line.
    package init(_ parsed: ParsedCommand) {
        server = parsed.value("server")
        root = parsed.value("root")
        json = parsed.flag("json")
        quiet = parsed.flag("quiet")
        verbose = parsed.flag("verbose")
        noProgress = parsed.flag("no-progress")
        insecure = parsed.flag("insecure")
        caCertificate = parsed.value("cacert")
        offline = parsed.flag("offline")
        noCache = parsed.flag("no-cache")
        cacheLimit = parsed.value("cache-limit")
        speedLimit = parsed.value("speed-limit")
        speedTime = parsed.value("speed-time")
    }
}

extension GlobalOptions {
    /// `--speed-limit` and `--speed-time` as numbers; a malformed value is a usage error before anything runs.
    package func lowSpeed() throws -> (bytesPerSecond: Int?, seconds: Double?) {
        let rate = try speedLimit.map { Int(try ArgumentValues.rate($0, option: "--speed-limit")) }
        let seconds = try speedTime.map { text -> Double in
            guard let value = Double(text), value >= 1, value <= 86_400 else {
                throw ArgumentError.invalidValue(option: "--speed-time", value: text, reason: "seconds from 1 to 86400")
            }
            return value
        }
        return (rate, seconds)
    }
}

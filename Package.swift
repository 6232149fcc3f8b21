// swift-tools-version:6.0
import PackageDescription

/// officer-files: a Swift library and CLI that moves and understands files for Officer servers.
///
/// Layers (each imports only those to its left; the compiler enforces it):
///   FileModel ← HTTP ← Transfer ← Officer ← OfficerFilesCLI ← officer-files, Journal ← Transfer, Preview ← Officer.
/// - FileModel: pure value types (no C), so it builds for iOS too.
/// - HTTP: the libcurl engine, requests, retries, credentials bound to an origin. Knows no protocol above HTTP.
/// - Journal: SQLite and the durable records of unfinished transfers. Knows no transfer engine: the engines
///   write their records into it, never the other way round.
/// - Transfer: segmented download, tus/multipart upload, content cache, checksums. Knows nothing of Officer or
///   images.
/// - Preview: looks at bytes (libmagic, libarchive, libvips). Knows no network.
/// - Officer: the Officer client, sync, remote actions and the front door that an app or the CLI uses.
/// C libraries enter through one system-library target each (module map + shim.h).
/// `scripts/fuzz` builds with the fuzzer's flags, which SwiftPM also gives the plugin's host tool (whose `main`
/// then clashes with libFuzzer's): that build leaves the version stamp out (`BuildVersion+Fuzzing.swift`).
let fuzzing = Context.environment["OFFICER_FILES_FUZZ"] != nil

let package = Package(
    name: "officer-files",
    // The Apple platforms the portable product is written for (Observation's `@Observable` TransferModel needs
    // these, Clock and Duration older ones; the standard `Mutex` would need iOS 18 / macOS 15, so state shared
    // between threads is kept in `LockedValue`). What needs newer is gated with `@available`.
    platforms: [.iOS(.v17), .macOS(.v14)],
    // What an app links: the front door (`Officer`, which re-exports FileModel) and the value types alone. The
    // engines are the package's own (`package` access): the CLI, the tests and the bench reach them, an app never.
    products: [
        .library(name: "FileModel", targets: ["FileModel"]),
        .library(name: "Officer", targets: ["Officer"]),
        // What a Linux program adds to `Officer`: the plug-ins on Linux-only C libraries (`LinuxPlugins.install()`).
        .library(name: "OfficerLinux", targets: ["OfficerLinux"]),
        .executable(name: "officer-files", targets: ["officer-files"]),
    ],
    targets: [
        .systemLibrary(
            name: "CCurl", pkgConfig: "officer-curl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            name: "CArchive", pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(
            name: "CMagic", pkgConfig: "libmagic",
            providers: [.apt(["libmagic-dev"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        .systemLibrary(
            name: "CVips", pkgConfig: "officer-vips",
            providers: [.apt(["libvips-dev"])]),

        // Pure Swift value types: no C module, so it builds for iOS and anywhere else.
        .target(name: "FileModel"),
        // Every Glibc/Darwin call the portable core makes, with both platforms' spellings (and inotify, Linux's).
        .target(name: "Platform"),
        .target(name: "Preview", dependencies: ["FileModel", "Platform"]),
        // The Linux plug-ins behind Preview's `FileTypeDetecting`, `ArchiveReading` and `ImagePreparing`.
        .target(name: "MagicFileTypes", dependencies: ["Preview", "CMagic"]),
        .target(name: "LibArchiveReading", dependencies: ["Preview", "CArchive"]),
        .target(name: "VipsImaging", dependencies: ["FileModel", "Preview", "CVips"]),
        .target(name: "HTTP", dependencies: ["FileModel", "Platform"]),
        // The libcurl engine, a Linux plug-in behind HTTP's `HTTPEngine`.
        .target(name: "CurlHTTP", dependencies: ["FileModel", "HTTP", "Platform", "CCurl"]),
        .target(name: "Journal", dependencies: ["FileModel", "Platform", "CSQLite"]),
        .target(name: "Transfer", dependencies: ["FileModel", "Platform", "HTTP", "Journal"]),
        // OpenSSL's digests, a Linux plug-in behind Transfer's `Hashing`.
        .target(name: "OpenSSLHashing", dependencies: ["Transfer", "CCrypto"]),
        .target(name: "Officer", dependencies: ["FileModel", "Platform", "HTTP", "Journal", "Transfer", "Preview"]),
        // Installs the Linux plug-ins into the portable core's slots; the CLI and Linux apps link it.
        .target(
            name: "OfficerLinux",
            dependencies: [
                "HTTP", "CurlHTTP", "Transfer", "OpenSSLHashing", "Preview", "MagicFileTypes", "LibArchiveReading",
                "VipsImaging",
            ]),
        // The commands, argument parser and progress reporter live in a library so tests can reach them.
        .target(
            name: "OfficerFilesCLI",
            dependencies: [
                "FileModel", "Platform", "Preview", "HTTP", "CurlHTTP", "Journal", "Transfer", "Officer",
                "OfficerLinux",
            ],
            plugins: fuzzing ? [] : ["VersionStamp"]),
        // VERSION (and the commit) into the CLI at build time: the one source of `--version`, the man page and the .deb.
        .executableTarget(name: "version-stamp"),
        .plugin(name: "VersionStamp", capability: .buildTool(), dependencies: ["version-stamp"]),
        .executableTarget(name: "officer-files", dependencies: ["OfficerFilesCLI"]),
        // Drives library code for the bench/ scripts; not part of the product.
        .executableTarget(name: "officer-files-bench", dependencies: ["FileModel", "HTTP", "Journal", "Transfer"]),
        // libFuzzer targets (scripts/fuzz); built normally it replays inputs, so found crashes stay tests.
        .executableTarget(
            name: "officer-files-fuzz",
            dependencies: [
                "FileModel", "Preview", "HTTP", "Journal", "Transfer", "Officer", "OfficerLinux", "OfficerFilesCLI",
            ]),

        // Starts the reference server, the fault proxy and the built CLI for tests; never shipped.
        .target(name: "TestSupport", dependencies: ["HTTP", "CurlHTTP", "OfficerLinux"], path: "Tests/TestSupport"),
        .testTarget(name: "FileModelTests", dependencies: ["FileModel", "TestSupport"]),
        .testTarget(
            name: "PreviewTests",
            dependencies: [
                "Preview", "MagicFileTypes", "LibArchiveReading", "VipsImaging", "OfficerLinux", "TestSupport",
            ]),
        .testTarget(
            name: "TransferTests",
            dependencies: [
                "HTTP", "CurlHTTP", "Journal", "Transfer", "OpenSSLHashing", "VipsImaging", "Officer", "TestSupport",
            ]),
        .testTarget(
            name: "CLITests",
            dependencies: ["OfficerFilesCLI", "HTTP", "CurlHTTP", "Journal", "Transfer", "Officer", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

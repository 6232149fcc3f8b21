// swift-tools-version:6.0
import PackageDescription

/// officer-files: a Swift library and CLI that moves and understands files for Officer servers.
///
/// Layers (each imports only those to its left): FileModel ← Preview ← Transfer ← OfficerFilesCLI ← officer-files.
/// C libraries enter through one system-library target each (module map + shim.h).
let package = Package(
    name: "officer-files",
    products: [
        .library(name: "FileModel", targets: ["FileModel"]),
        .library(name: "Preview", targets: ["Preview"]),
        .library(name: "Transfer", targets: ["Transfer"]),
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
        .target(name: "Preview", dependencies: ["FileModel", "CMagic", "CArchive", "CVips"]),
        .target(name: "Transfer", dependencies: ["FileModel", "Preview", "CCurl", "CSQLite", "CCrypto"]),
        // The commands, argument parser and progress reporter live in a library so tests can reach them.
        .target(name: "OfficerFilesCLI", dependencies: ["FileModel", "Preview", "Transfer"]),
        .executableTarget(name: "officer-files", dependencies: ["OfficerFilesCLI"]),
        // Drives library code for the bench/ scripts; not part of the product.
        .executableTarget(name: "officer-files-bench", dependencies: ["Transfer"]),
        // libFuzzer targets (scripts/fuzz); built normally it replays inputs, so found crashes stay tests.
        .executableTarget(name: "officer-files-fuzz", dependencies: ["FileModel", "Preview", "Transfer", "OfficerFilesCLI"]),

        // Starts the reference server, the fault proxy and the built CLI for tests; never shipped.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "FileModelTests", dependencies: ["FileModel"]),
        .testTarget(name: "PreviewTests", dependencies: ["Preview", "TestSupport"]),
        .testTarget(name: "TransferTests", dependencies: ["Transfer", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["OfficerFilesCLI", "Transfer", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

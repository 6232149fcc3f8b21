// swift-tools-version:6.0
import PackageDescription

/// Small programs an app developer can read: they use officer-files only through its front door
/// (`OfficerFiles`, module `Officer`), as the Officer apps do. Built and run against the reference server by
/// `Tests/CLITests/ExamplePackageTests.swift`.
let package = Package(
    name: "PhotoBackup",
    // As low as officer-files goes (its Package.swift): an app's own floor may be higher, never lower.
    platforms: [.iOS(.v17), .macOS(.v14)],
    dependencies: [.package(name: "officer-files", path: "../..")],
    targets: [
        // Backs up a photo folder (images prepared, then synced) and prints the facts of a remote file.
        .executableTarget(
            name: "photo-backup",
            dependencies: [
                .product(name: "Officer", package: "officer-files"),
                .product(name: "OfficerLinux", package: "officer-files", condition: .when(platforms: [.linux])),
            ]),
        // The README's "As a library" code, word for word (a test compares the two). Like photo-backup and
        // file-browser, it installs the Linux plug-ins on Linux (file types, images, archives need them).
        .executableTarget(
            name: "readme-example",
            dependencies: [
                .product(name: "Officer", package: "officer-files"),
                .product(name: "OfficerLinux", package: "officer-files", condition: .when(platforms: [.linux])),
            ]),
        // A folder screen's view model (paging, opening with progress and cancel, a camera photo, chat
        // attachments, errors as shown), driven as a user would.
        // On Linux it installs the Linux plug-ins, as a Linux app would (its downloads keep a bandwidth limit).
        .executableTarget(
            name: "file-browser",
            dependencies: [
                .product(name: "Officer", package: "officer-files"),
                .product(name: "OfficerLinux", package: "officer-files", condition: .when(platforms: [.linux])),
            ]),
        // A phone app's whole file life on the product `Officer` alone, as an iOS app links it: no Linux plug-ins
        // (sign in, page, open/leave/open again, a photo without its position, an attachment, sign out).
        .executableTarget(name: "phone-app", dependencies: [.product(name: "Officer", package: "officer-files")]),
        // Plug-ins an app brings, given to one front door and used for its work alone.
        .executableTarget(name: "own-plugins", dependencies: [.product(name: "Officer", package: "officer-files")]),
        // The DocC articles' code, generated from them (scripts/docc-snippets), compiled as written.
        .target(name: "docc-articles", dependencies: [.product(name: "Officer", package: "officer-files")]),
        // The README's S3 code, word for word.
        .executableTarget(
            name: "readme-object-store", dependencies: [.product(name: "Officer", package: "officer-files")]),
    ],
    swiftLanguageModes: [.v6]
)

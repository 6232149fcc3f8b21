import Foundation
import TestSupport
import Testing

/// What an iOS app links: the `Officer` product's dependency closure, read from the package's own description,
/// holds none of the Linux-only C libraries; they reach a program only through `OfficerLinux`'s plug-ins.
@Suite struct PortableCoreTests {
    static let linuxOnly: Set<String> = ["CCurl", "CVips", "CMagic", "CArchive", "CCrypto"]

    /// Every target a product's targets depend on, directly or not (the targets themselves included).
    static func closure(of product: String) async throws -> Set<String> {
        // A scratch folder of its own: the test run holds the package's build folder.
        let scratch = TemporaryDirectory(prefix: "describe")
        let result = try await ProcessRunner.runDetached(
            "/usr/bin/env",
            [
                "swift", "package", "--package-path", ProcessRunner.packageRoot, "--scratch-path", scratch.path,
                "describe", "--type", "json",
            ])
        try #require(result.status == 0, "\(result.stderr)")
        let description = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let targets = try #require(description["targets"] as? [[String: Any]])
        var dependencies: [String: [String]] = [:]
        for target in targets {
            guard let name = target["name"] as? String else { continue }
            dependencies[name] = target["target_dependencies"] as? [String] ?? []
        }
        let products = try #require(description["products"] as? [[String: Any]])
        let roots = try #require(products.first { $0["name"] as? String == product }?["targets"] as? [String])
        var seen = Set<String>()
        var pending = roots
        while let next = pending.popLast() {
            guard seen.insert(next).inserted else { continue }
            pending += dependencies[next] ?? []
        }
        return seen
    }

    @Test func theOfficerProductLinksNoLinuxOnlyLibrary() async throws {
        let portable = try await Self.closure(of: "Officer")
        #expect(portable.isSuperset(of: ["Officer", "FileModel", "HTTP", "Journal", "Transfer", "Preview", "CSQLite"]))
        #expect(portable.isDisjoint(with: Self.linuxOnly), "\(portable.intersection(Self.linuxOnly))")
        // The plug-ins are where those libraries went: a Linux program gets all five through one product.
        let linux = try await Self.closure(of: "OfficerLinux")
        #expect(linux.isSuperset(of: Self.linuxOnly), "\(Self.linuxOnly.subtracting(linux))")
    }

    /// The platform's C library is spelled in `Sources/Platform` alone, where both platforms' spellings are.
    @Test func noPlatformCallOutsideThePlatformLayer() throws {
        let root = ProcessRunner.packageRoot + "/Sources"
        let files = try #require(FileManager.default.enumerator(atPath: root)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("Platform/") }
        #expect(files.count > 100)
        for file in files {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            for spelling in ["import Glibc", "import Darwin", "Glibc.", "st_mtim", "st_ctim", "posix_fallocate"] {
                #expect(!text.contains(spelling), "\(file) uses \(spelling)")
            }
        }
    }
}

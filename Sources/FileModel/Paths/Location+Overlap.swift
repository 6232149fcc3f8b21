import Foundation

extension Location {
    /// Whether the two places are the same folder or one lies inside the other, on the same remote (rclone refuses
    /// such a sync: the destination's new files would be the source's next run, and `--delete` would delete the
    /// source's own files). Local paths are compared as absolute paths with their links resolved.
    package func overlaps(_ other: Location) -> Bool {
        switch (self, other) {
        case (.local(let one), .local(let two)):
            return Self.nested(Self.components(ofLocal: one), Self.components(ofLocal: two))
        case (.officer(let one), .officer(let two)):
            return one.remote == two.remote && one.root == two.root
                && Self.nested(Self.components(one.path), Self.components(two.path))
        case (.object(let one), .object(let two)):
            return one.remote == two.remote && one.bucket == two.bucket
                && Self.nested(Self.components(one.key), Self.components(two.key))
        default:
            return false
        }
    }

    private static func components(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    /// An absolute path's components, its links resolved as far as it exists (a folder a sync will create does not).
    private static func components(ofLocal path: String) -> [Substring] {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        var missing: [String] = []
        while !FileManager.default.fileExists(atPath: url.path), url.pathComponents.count > 1 {
            missing.insert(url.lastPathComponent, at: 0)
            url.deleteLastPathComponent()
        }
        let resolved =
            url.resolvingSymlinksInPath().path + (missing.isEmpty ? "" : "/" + missing.joined(separator: "/"))
        return components(resolved)
    }

    private static func nested(_ one: [Substring], _ two: [Substring]) -> Bool {
        let shorter = min(one.count, two.count)
        return Array(one.prefix(shorter)) == Array(two.prefix(shorter))
    }
}

import Foundation

/// The rule that turns a local path into the form it is kept in and back, over the base folders an app declares
/// by name (`documents`, `caches`, `app-group`, …): relative to the deepest base folder
/// holding it (`documents:Photos/a.jpg`, `documents:` for the folder itself), absolute when none does. Every
/// store of local paths (the journal's downloads, uploads and queued writes, the prepared copies' names) goes
/// through one value of this, made once per front door, so a moved container finds every file again.
package struct PathAnchors: Sendable, Equatable {
    /// A base folder: its name, the path it is declared at, and every spelling of that path a file under it may
    /// come as (its links resolved; an app's `/var/mobile/…` is also `/private/var/mobile/…`).
    struct Anchor: Sendable, Equatable {
        var name: String
        var folder: String
        var spellings: [String]
    }

    /// Deepest first, so a nested folder wins over the one around it.
    private let anchors: [Anchor]

    /// No base folders: every path is kept as it is.
    package init() { anchors = [] }

    /// The folders by name; names that are not valid, and folders that are not absolute, are left out.
    package init(_ folders: [String: String]) {
        anchors = folders.compactMap { name, folder -> Anchor? in
            guard Self.isValidName(name), folder.hasPrefix("/") else { return nil }
            let standard = Self.standardized(folder)
            return Anchor(name: name, folder: standard, spellings: Self.spellings(of: standard))
        }
        .sorted { ($0.folder.count, $0.name) > ($1.folder.count, $1.name) }
    }

    /// A base folder's name: letters, digits, `-`, `_` and `.`, so a kept path never reads as an absolute one
    /// or as a name and a path at once.
    private static func isValidName(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || "-_.".unicodeScalars.contains($0)
            }
    }

    /// True when no folder is declared.
    package var isEmpty: Bool { anchors.isEmpty }

    /// How `path` is kept: `name:relative` under the deepest base folder holding it, else the path itself.
    package func kept(_ path: String) -> String {
        guard path.hasPrefix("/"), !anchors.isEmpty else { return path }
        let standard = Self.standardized(path)
        for anchor in anchors {
            for folder in anchor.spellings {
                if let relative = Self.relative(standard, to: folder) { return anchor.name + ":" + relative }
            }
        }
        return path
    }

    /// The path a kept form names in this run: an absolute one as it is, a relative one under the folder its name
    /// is declared at now; nil when this run declares no folder of that name (the record stays for a run that does).
    package func path(_ kept: String) -> String? {
        if kept.hasPrefix("/") { return kept }
        guard let colon = kept.firstIndex(of: ":") else { return nil }
        let name = String(kept[..<colon])
        let relative = String(kept[kept.index(after: colon)...])
        guard let anchor = anchors.first(where: { $0.name == name }) else { return nil }
        return relative.isEmpty ? anchor.folder : anchor.folder + "/" + relative
    }

    /// `path` below `folder` (empty for the folder itself), or nil when it is not inside it.
    private static func relative(_ path: String, to folder: String) -> String? {
        if path == folder { return "" }
        let prefix = folder == "/" ? "/" : folder + "/"
        guard path.hasPrefix(prefix) else { return nil }
        return String(path.dropFirst(prefix.count))
    }

    /// Without `.`/`..` components, repeated or trailing slashes: the same folder is always spelt the same.
    private static func standardized(_ path: String) -> String {
        var components: [Substring] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }

    /// The folder as declared, with its links resolved, and the `/private` twin of each (Apple's resolution
    /// drops `/private`, while paths handed to an app often carry it).
    private static func spellings(of folder: String) -> [String] {
        var forms = [folder, standardized(URL(fileURLWithPath: folder).resolvingSymlinksInPath().path)]
        for form in forms {
            if form.hasPrefix("/private/") {
                forms.append(String(form.dropFirst("/private".count)))
            } else if form.hasPrefix("/var/") || form.hasPrefix("/tmp/") {
                forms.append("/private" + form)
            }
        }
        var seen = Set<String>()
        return forms.filter { seen.insert($0).inserted }
    }
}

/// A path inside a sync, relative to its two roots, as components.
///
/// Both sides are walked depth first with siblings in byte order of their UTF-8 names, which is the order of
/// ``precedes(_:)``: a folder comes right before its contents, and the two streams can be merged in one pass.
package struct SyncPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The names from the sync root down.
    package var components: [String]

    /// A path from components that are already known to be safe names.
    package init(_ components: [String]) { self.components = components }

    /// The root itself.
    package static let root = SyncPath([])

    /// `a/b/c`.
    package var description: String { components.joined(separator: "/") }

    /// The last name.
    package var name: String { components.last ?? "" }

    /// The path one level down.
    package func appending(_ name: String) -> SyncPath { SyncPath(components + [name]) }

    /// Whether `self` is `other` or lies inside it.
    package func isInside(_ other: SyncPath) -> Bool {
        components.count >= other.components.count
            && Array(components.prefix(other.components.count)) == other.components
    }

    /// Depth-first order with siblings by UTF-8 bytes (a parent before its children).
    package static func < (lhs: SyncPath, rhs: SyncPath) -> Bool {
        for (left, right) in zip(lhs.components, rhs.components) where left != right {
            return left.utf8.lexicographicallyPrecedes(right.utf8)
        }
        return lhs.components.count < rhs.components.count
    }

    /// Why a name from a server cannot be used locally, or nil when it is a plain file name: the one name rule,
    /// ``FileName/problem(_:)``.
    package static func problem(withName name: String) -> String? { FileName.problem(name) }

    /// The path of a server entry below `base`, checked component by component; a reason when it is unsafe
    /// (absolute elsewhere, `..`, NUL, a separator inside the name, a name that is not its path's last part).
    package static func relative(entryPath: String, name: String, below base: String) -> Result<SyncPath, SyncNameError>
    {
        let prefix = base == "/" ? "/" : base + "/"
        guard entryPath.hasPrefix(prefix) else {
            return .failure(SyncNameError(name: entryPath, reason: "a path outside \(base)"))
        }
        if let reason = problem(withName: name) { return .failure(SyncNameError(name: entryPath, reason: reason)) }
        let components = entryPath.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(
            String.init)
        for component in components {
            if let reason = problem(withName: component) {
                return .failure(SyncNameError(name: entryPath, reason: reason))
            }
        }
        guard components.last == name else {
            return .failure(
                SyncNameError(name: entryPath, reason: "the name '\(name)' is not the last part of its path"))
        }
        return .success(SyncPath(components))
    }
}

/// A name a side listed that a sync refuses to use: a server's that could escape the destination, a local one that
/// is not UTF-8.
package struct SyncNameError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name or path as sent.
    package var name: String
    /// What is wrong with it.
    package var reason: String

    /// Creates the error.
    package init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }

    /// The name with control characters escaped (`\0`, `\n`…), safe to print on a terminal.
    package var printableName: String { TerminalText.escaped(name) }

    /// `refused a name from the server: ../x: the name '..'`.
    package var description: String { "refused a name from the server: \(printableName): \(reason)" }
}

import FileModel
import Foundation

/// One side of a sync as a remote's sync requirements get it: the folder the sync is rooted at, the sync's options,
/// and whether the side is the source (a local source defers files that have not settled and prepares images).
package struct SyncRoot: Sendable {
    /// The folder synced (this machine's, standardized).
    package var location: Location
    /// How the sync runs.
    package var options: SyncOptions
    /// The side files are sent from.
    package var isSource: Bool

    /// A side rooted at `location` (a folder on this machine standardized once here, not on each file's path).
    package init(_ location: Location, options: SyncOptions, isSource: Bool) {
        self.location =
            location.localPath.map { .local(URL(fileURLWithPath: $0).standardizedFileURL.path) } ?? location
        self.options = options
        self.isSource = isSource
    }

    /// The location of `path` below the root.
    package func location(of path: SyncPath) throws -> Location {
        var result = location
        for component in path.components {
            guard let next = result.appending(component) else {
                throw FrontDoorRefusal.invalidValue("\(location): cannot name \(path) below it")
            }
            result = next
        }
        return result
    }
}

import FileModel
import Foundation

/// A change to a remote's files, as ``OfficerFiles/makeOrQueue(_:)`` takes it: made now, or kept to be made when
/// the server answers again. Moves, copies and uploads into a folder land in it by their name, as mv(1) and
/// cp(1) place them.
public enum FileChange: Sendable, Equatable {
    /// Make a folder; `parents`: and the folders missing above it (an existing folder is then fine).
    case makeFolder(Location, parents: Bool)
    /// Upload a local file to a name, or into a folder.
    case upload(URL, to: Location, overwrite: Bool)
    /// Move or rename within one remote.
    case move(Location, to: Location, overwrite: Bool)
    /// Copy within one remote; `recursive`: a folder with everything in it.
    case copy(Location, to: Location, overwrite: Bool, recursive: Bool)
    /// Remove a file; `recursive`: a folder with everything in it.
    case remove(Location, recursive: Bool)

    /// The location it changes (the source of a move or copy, the destination of an upload).
    package var location: Location {
        switch self {
        case .makeFolder(let location, _), .upload(_, let location, _), .move(let location, _, _),
            .copy(let location, _, _, _), .remove(let location, _):
            location
        }
    }
}

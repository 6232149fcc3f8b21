import FileModel
import Foundation

extension Location {
    /// A folder or file to be created on an Officer server or this machine has a name the rule allows
    /// (``FileName``), checked before any request; `all` checks the folders above too (`mkdir -p` may create
    /// them). Names that exist already are never refused elsewhere: what another client made stays usable.
    package static func requireStorableNames(_ location: Location, all: Bool = false) throws {
        guard let path = location.ruledPath else { return }
        let checked = all ? path : String(path.split(separator: "/").last ?? "")
        guard let (name, _) = FileName.firstProblem(inPath: checked) else { return }
        let folder = location.description.components(separatedBy: name).first ?? location.description
        throw RemotePathError.unstorableName(folder: folder, name: name)
    }
}

import FileModel
import Foundation

extension OfficerFiles {
    /// `location` with a pattern in its last name (`officer:/Receipts/*.jpg`: `*`, `?`, `[…]`) as the entries of its
    /// folder that match, in name order; anything else as itself. Only the last name may be a pattern (the folder
    /// is listed once, as a shell lists one folder). A pattern that matches nothing is
    /// ``FrontDoorRefusal/noMatch(_:)``: nothing is done to a guessed path.
    package func expand(_ location: Location) async throws -> [Location] {
        guard location.isRemote, !location.isWebAddress, GlobPattern.hasWildcards(location.name),
            let pattern = GlobPattern(location.name), let folder = location.patternFolder
        else { return [location] }
        let listing = try await list(folder)
        // A name that holds the pattern's characters itself (`fake [1].jpg`) is that file, as a shell takes it.
        if listing.entries.contains(where: { $0.name == location.name }) { return [location] }
        let matched = listing.entries.filter { pattern.matches(name: $0.name) }.sorted { $0.name < $1.name }
        guard !matched.isEmpty else { throw FrontDoorRefusal.noMatch(location.description) }
        return matched.map(\.location)
    }

    /// Every location of `locations` expanded (``expand(_:)``), in order.
    package func expand(_ locations: [Location]) async throws -> [Location] {
        var all: [Location] = []
        for location in locations { all += try await expand(location) }
        return all
    }
}

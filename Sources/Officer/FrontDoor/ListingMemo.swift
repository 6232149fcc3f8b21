import FileModel

/// The folders a front door has just listed whole for paging, so an app scrolling through one
/// (``OfficerFiles/pages(of:size:after:)``, a page a call) lists it once for a cursor's life, not once a page:
/// a later page within ``lifetime`` of the first is cut from the same listing. A few folders are kept, the
/// oldest dropped first; time is the front door's clock.
final class ListingMemo: Sendable {
    /// How long a listing serves the pages after its first: a screen scrolling through a folder.
    static let lifetime = 120.0
    /// Folders kept at once.
    static let capacity = 8

    private struct Kept {
        var entries: [RemoteEntry]
        var listedAt: Double
    }

    private let kept = LockedValue<[Location: Kept]>([:])
    private let clock: ClockReading

    /// A memo on `clock`.
    init(clock: any Clock<Duration>) { self.clock = ClockReading(clock) }

    /// The entries of `folder` in name order, when a listing of it made within ``lifetime`` is kept.
    func entries(of folder: Location) -> [RemoteEntry]? {
        let now = clock.seconds
        return kept.withLock { kept in
            guard let listing = kept[folder], now - listing.listedAt <= Self.lifetime else { return nil }
            return listing.entries
        }
    }

    /// Keeps `entries` (in name order) as the listing of `folder` made now.
    func keep(_ entries: [RemoteEntry], of folder: Location) {
        let now = clock.seconds
        kept.withLock { kept in
            kept[folder] = Kept(entries: entries, listedAt: now)
            while kept.count > Self.capacity, let oldest = kept.min(by: { $0.value.listedAt < $1.value.listedAt }) {
                kept[oldest.key] = nil
            }
        }
    }
}

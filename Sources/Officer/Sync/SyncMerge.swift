import FileModel

/// Two listings that come in ``SyncPath`` order, paired by path: an entry both have comes as one pair, an entry
/// only one has comes alone. Both sync engines merge this way, so memory stays bounded by what the listings
/// hold, never by the size of the trees.
struct SyncMerge {
    private var left: SyncItem?
    private var right: SyncItem?
    private let nextLeft: () async -> SyncItem?
    private let nextRight: () async -> SyncItem?

    /// Starts both listings.
    init(left nextLeft: @escaping () async -> SyncItem?, right nextRight: @escaping () async -> SyncItem?) async {
        self.nextLeft = nextLeft
        self.nextRight = nextRight
        left = await nextLeft()
        right = await nextRight()
    }

    /// The next pair (at least one side set), nil when both listings ended.
    mutating func next() async -> (left: SyncItem?, right: SyncItem?)? {
        if let l = left, let r = right, l.path == r.path {
            left = await nextLeft()
            right = await nextRight()
            return (l, r)
        }
        if let l = left, right.map({ l.path < $0.path }) ?? true {
            left = await nextLeft()
            return (l, nil)
        }
        guard let r = right else { return nil }
        right = await nextRight()
        return (nil, r)
    }
}

extension QueuedWrite {
    /// Whether `path` (in `root`) will be there once `earlier` writes ran, as far as they tell: true when one
    /// of them makes it, false when one removes or moves it (or a folder above it) away, nil when none touches it.
    public static func projected(_ path: String, root: String, after earlier: [QueuedWrite]) -> Bool? {
        var state: Bool?
        for write in earlier where write.root == root {
            let covers = { (top: String) in path == top || path.hasPrefix(top == "/" ? "/" : top + "/") }
            switch write.kind {
            case .makeFolder, .upload:
                if write.path == path { state = true }
            case .copy:
                if let destination = write.destination, covers(destination) { state = destination == path ? true : state }
            case .move:
                if covers(write.path) { state = false }
                if let destination = write.destination, destination == path { state = true }
            case .remove:
                if covers(write.path) { state = false }
            }
        }
        return state
    }

    /// Why this write contradicts `earlier` ones still queued (it moves or removes what they remove, or makes a
    /// name they make), or nil: such a write would only fail when replayed, after the user went away.
    public func contradiction(after earlier: [QueuedWrite]) -> (path: String, earlier: QueuedWrite)? {
        func last(touching path: String) -> QueuedWrite? {
            earlier.last { $0.root == root && ($0.path == path || $0.destination == path || QueuedWrite.related($0.path, path)) }
        }
        var mustExist: [String] = []
        var mustBeFree: [String] = []
        switch kind {
        case .makeFolder: if !parents { mustBeFree.append(path) }
        case .upload: if !overwrite { mustBeFree.append(path) }
        case .move, .copy:
            mustExist.append(path)
            if !overwrite, let destination { mustBeFree.append(destination) }
        case .remove: mustExist.append(path)
        }
        for path in mustExist where Self.projected(path, root: root, after: earlier) == false {
            if let write = last(touching: path) { return (path, write) }
        }
        for path in mustBeFree where Self.projected(path, root: root, after: earlier) == true {
            if let write = last(touching: path) { return (path, write) }
        }
        return nil
    }
}

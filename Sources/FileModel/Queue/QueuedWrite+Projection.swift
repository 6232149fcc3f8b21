extension QueuedWrite {
    /// What a path will be once queued writes ran.
    package enum Projection: Sendable, Equatable {
        /// A folder: one they make, or one above what they put somewhere (it exists, or `-p` makes it).
        case folder
        /// A file they upload.
        case file
        /// Something a move or copy puts there, of its source's kind.
        case present
        /// Removed, or moved away (itself or a folder above it).
        case absent
    }

    /// What `path` (in `root`) will be once `earlier` writes ran, as far as they tell; nil when none touches it.
    package static func projection(of path: String, root: String, after earlier: [QueuedWrite]) -> Projection? {
        var state: Projection?
        let covers = { (top: String) in path == top || path.hasPrefix(top == "/" ? "/" : top + "/") }
        // What a write puts at `target`: that, and a folder at each folder above it.
        func puts(_ target: String, _ kind: Projection) {
            if target == path {
                state = kind
            } else if target.hasPrefix(path == "/" ? "/" : path + "/") {
                state = .folder
            }
        }
        for write in earlier where write.root == root {
            switch write.kind {
            case .makeFolder: puts(write.path, .folder)
            case .upload: puts(write.path, .file)
            case .copy: if let destination = write.destination { puts(destination, .present) }
            case .move:
                if covers(write.path) { state = .absent }
                if let destination = write.destination { puts(destination, .present) }
            case .remove:
                if covers(write.path) { state = .absent }
            }
        }
        return state
    }

    /// Whether `path` (in `root`) will be there once `earlier` writes ran, as far as they tell: true when they
    /// make it (or something inside it), false when one removes or moves it (or a folder above it) away, nil
    /// when none touches it.
    package static func projected(_ path: String, root: String, after earlier: [QueuedWrite]) -> Bool? {
        projection(of: path, root: root, after: earlier).map { $0 != .absent }
    }

    /// Why this write contradicts `earlier` ones still queued (it moves or removes what they remove, or makes a
    /// name they make), or nil: such a write would only fail when replayed, after the user went away.
    package func contradiction(after earlier: [QueuedWrite]) -> (path: String, earlier: QueuedWrite)? {
        func last(touching path: String) -> QueuedWrite? {
            earlier.last {
                $0.root == root && ($0.path == path || $0.destination == path || QueuedWrite.related($0.path, path))
            }
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

#if os(Linux)
    import Glibc

    /// Every call into Linux's inotify, in one place.
    enum InotifyCalls {
        /// What a watched folder reports: files written and closed, created, moved in or out, removed, changed
        /// attributes (a touch), and the folder itself going away.
        static let mask: UInt32 =
            UInt32(IN_CLOSE_WRITE) | UInt32(IN_MODIFY) | UInt32(IN_CREATE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM)
            | UInt32(IN_DELETE) | UInt32(IN_ATTRIB) | UInt32(IN_DELETE_SELF) | UInt32(IN_ONLYDIR)
            | UInt32(IN_DONT_FOLLOW)
            | UInt32(IN_EXCL_UNLINK)

        static func open() -> Int32 { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
        static func addWatch(_ descriptor: Int32, _ path: String) -> Int32 { inotify_add_watch(descriptor, path, mask) }

        static let isDirectory = UInt32(IN_ISDIR)
        static let overflow = UInt32(IN_Q_OVERFLOW)
        static let ignored = UInt32(IN_IGNORED)
        static let removed = UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM)
        static let appeared = UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)
        static let selfRemoved = UInt32(IN_DELETE_SELF)
        static let closedWrite = UInt32(IN_CLOSE_WRITE)
        static let movedIn = UInt32(IN_MOVED_TO)
    }
#endif

#if os(Linux)
    import Glibc

    /// Every call into Linux's inotify, in one place.
    package enum InotifyCalls {
        /// What a watched folder reports: files written and closed, created, moved in or out, removed, changed
        /// attributes (a touch), and the folder itself going away.
        package static let mask: UInt32 =
            UInt32(IN_CLOSE_WRITE) | UInt32(IN_MODIFY) | UInt32(IN_CREATE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM)
            | UInt32(IN_DELETE) | UInt32(IN_ATTRIB) | UInt32(IN_DELETE_SELF) | UInt32(IN_ONLYDIR)
            | UInt32(IN_DONT_FOLLOW)
            | UInt32(IN_EXCL_UNLINK)

        package static func open() -> Int32 { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
        package static func addWatch(_ descriptor: Int32, _ path: String) -> Int32 {
            inotify_add_watch(descriptor, path, mask)
        }

        package static let isDirectory = UInt32(IN_ISDIR)
        package static let overflow = UInt32(IN_Q_OVERFLOW)
        package static let ignored = UInt32(IN_IGNORED)
        package static let removed = UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM)
        package static let appeared = UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)
        package static let selfRemoved = UInt32(IN_DELETE_SELF)
        package static let closedWrite = UInt32(IN_CLOSE_WRITE)
        package static let movedIn = UInt32(IN_MOVED_TO)

        /// The size of an event's fixed part; its name follows.
        package static let eventHeaderSize = MemoryLayout<inotify_event>.size

        /// The watch, mask and name length of the event at `offset` of `raw`.
        package static func event(in raw: UnsafeRawBufferPointer, at offset: Int) -> (
            watch: Int32, mask: UInt32, nameLength: Int
        ) {
            let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
            return (event.wd, event.mask, Int(event.len))
        }
    }
#endif

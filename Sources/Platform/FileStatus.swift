#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The times of a `stat`, spelled once for both platforms (Glibc's `st_mtim`, Darwin's `st_mtimespec`).
extension stat {
    /// When the contents last changed.
    package var modificationTime: timespec {
        #if canImport(Darwin)
            st_mtimespec
        #else
            st_mtim
        #endif
    }

    /// When the inode last changed (contents, owner, mode, links).
    package var statusChangeTime: timespec {
        #if canImport(Darwin)
            st_ctimespec
        #else
            st_ctim
        #endif
    }

    /// ``modificationTime`` in seconds since 1970.
    package var modificationSeconds: Double { modificationTime.seconds }
}

extension timespec {
    /// The time in seconds since 1970.
    package var seconds: Double { Double(tv_sec) + Double(tv_nsec) / 1e9 }
}

/// A `stat` of a path or descriptor, nil (with `errno` set) when it fails.
package enum FileStatus {
    /// `stat(2)` of `path`, following links.
    package static func of(_ path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }

    /// `lstat(2)` of `path`: a link itself.
    package static func ofLink(_ path: String) -> stat? {
        var info = stat()
        return lstat(path, &info) == 0 ? info : nil
    }

    /// `fstat(2)` of an open descriptor.
    package static func of(descriptor: Int32) -> stat? {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? info : nil
    }
}

#if canImport(Glibc)
    import Glibc

    /// glibc's `fallocate`, Linux's system call of that name: Swift's Glibc module leaves it out (it is declared
    /// only under `_GNU_SOURCE`), so it is looked up once by name in the C library the process already has.
    enum LinuxFallocate {
        /// `fallocate(fd, mode, offset, length)`; nil where the C library has none (the caller then sets the length).
        typealias Function = @convention(c) (Int32, Int32, off_t, off_t) -> Int32

        /// The function, found on first use.
        static let function: Function? = {
            guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "fallocate") else { return nil }
            return unsafeBitCast(symbol, to: Function.self)
        }()
    }
#endif

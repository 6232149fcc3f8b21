import Preview

/// libvips' process-wide set-up, done once: initialization, operation cache off, untrusted loaders blocked.
package enum VipsRuntime {
    // A static let runs its initializer exactly once, thread-safely.
    private static let initialization: Result<Void, VipsError> = {
        if let problem = VipsCalls.load() {
            return .failure(.initializationFailed("cannot load libvips (\(problem)); install Debian's libvips42"))
        }
        guard VipsCalls.initialize() == 0 else { return .failure(.initializationFailed(VipsCalls.lastError())) }
        // Cached operations would keep decoded pixels of files we never look at again.
        VipsCalls.disableOperationCache()
        VipsCalls.silenceWarnings()
        // Loaders libvips marks untrusted (e.g. via ImageMagick) are not fuzzed enough for files from others.
        VipsCalls.blockUntrustedLoaders()
        return .success(())
    }()

    /// Initializes libvips if it has not been yet.
    package static func ensureInitialized() throws(VipsError) {
        try initialization.get()
    }

    /// The libvips version, e.g. `8.14.1`, or why it cannot be loaded.
    package static var libraryVersion: String {
        do {
            try ensureInitialized()
            return VipsCalls.version()
        } catch {
            return "unavailable (\(error))"
        }
    }
}

import Transfer

extension DownloadOptions {
    /// A sync's fetch of a file listed at `size` bytes: it replaces the staged or temp file it is written to, and
    /// the sync sets the time itself.
    static func syncFetch(size: Int64) -> DownloadOptions {
        var options = DownloadOptions()
        options.force = true
        options.preserveModificationTime = false
        options.knownLength = size
        return options
    }
}

import FileModel
import Foundation

/// Progress lines for one file moved in parts (ranges of a download, parts of an upload): one line per
/// part plus the total, and `-v` notes for retries and restarts. Shared by `get` and `put`.
final class PartsDisplay: @unchecked Sendable {
    let reporter: ProgressReporter
    let name: String
    private let verbose: Bool
    /// `-q`: results and notes are not shown.
    let quiet: Bool
    private let console: Console
    private let lock = NSLock()
    private var ids: [Int] = []

    init(reporter: ProgressReporter, name: String, context: CommandContext) {
        self.reporter = reporter
        self.name = name
        verbose = context.global.verbose
        quiet = context.global.quiet || context.global.json
        console = context.console
    }

    /// (Re)starts the display with one line per part of the given sizes (a single line for one part).
    func start(total: Int64?, partSizes: [Int64]) {
        lock.withLock {
            for id in ids { reporter.discard(id) }
            if partSizes.count <= 1 {
                ids = [reporter.start(name: name, total: total)]
            } else {
                reporter.itemLabel = "parts"
                ids = partSizes.enumerated().map { index, size in
                    reporter.start(name: "\(name) [\(index + 1)/\(partSizes.count)]", total: size)
                }
            }
        }
    }

    /// Bytes of a part done.
    func progress(part: Int, done: Int64) {
        if let id = lock.withLock({ part < ids.count ? ids[part] : nil }) { reporter.update(id, done: done) }
    }

    /// A line for `-v` only.
    func note(_ text: String) {
        if verbose { console.message("\(name): \(text)") }
    }

    /// Marks every part finished.
    func finish(failed: Bool) {
        lock.withLock { for id in ids { reporter.finish(id, failed: failed) } }
    }
}

import Officer

/// A sync's stream in JSON (`sync`, `copy`): a `planned` record per step of a dry run, a `done` record per step
/// taken, then one `summary`; schemas `sync-step` and `sync-summary`.
struct SyncStepRecord: Encodable, Sendable {
    /// `planned` or `done`.
    var type: String
    /// `upload`, `download`, `mkdir`, `delete` or `set-time`.
    var kind: String
    /// What a `mkdir`, `delete` or `set-time` is about, on the destination.
    var path: String?
    /// What an `upload` or `download` copies, and where to.
    var source: String?
    var destination: String?
    var size: Int64
    /// Why: `new`, `size differs`, `newer`, …
    var reason: String
    /// A fetched file's check (`sha256`, `md5`, or `size` where the remote offered no digest).
    var checked: String?

    init(type: String, _ action: SyncAction, roots: SyncRoots) {
        self.type = type
        kind = action.kind.rawValue
        switch action.kind {
        case .upload, .download:
            source = roots.source(action.path)
            destination = roots.destination(action.path)
        case .makeDirectory, .delete, .setTime:
            path = roots.destination(action.path)
        }
        size = action.bytes
        reason = action.reason
        checked = action.checked?.rawValue
    }
}

/// The end of a sync in JSON: schema `sync-summary`.
package struct SyncSummaryRecord: Codable, Sendable {
    package var type = "summary"
    package var source: String
    package var destination: String
    package var dryRun: Bool
    package var transferred: Int
    /// Bytes transferred.
    package var size: Int64
    package var unchanged: Int
    package var foldersCreated: Int
    package var deleted: Int
    /// Files only on the destination, left there (no `--delete`).
    package var extraneous: Int
    package var timesSet: Int
    package var warnings: Int
    package var failures: [Failure]
    /// Failures beyond those listed.
    package var unlistedFailures: Int
    /// Why no deletion was made, when one was due.
    package var deletionsSkipped: String?
    package var seconds: Double

    package struct Failure: Codable, Sendable {
        package var path: String
        package var operation: String
        package var message: String
    }

    /// Failures, those listed and those beyond.
    package var failureCount: Int { failures.count + unlistedFailures }

    init(_ report: SyncReport, roots: SyncRoots) {
        source = roots.sourceRoot
        destination = roots.destinationRoot
        dryRun = report.dryRun
        transferred = report.transferred
        size = report.bytes
        unchanged = report.unchanged
        foldersCreated = report.directoriesCreated
        deleted = report.deleted
        extraneous = report.extraneous
        timesSet = report.timesSet
        warnings = report.warnings
        failures = report.failures.map {
            Failure(path: roots.destination($0.path), operation: $0.operation, message: $0.message)
        }
        unlistedFailures = report.unlistedFailures
        deletionsSkipped = report.deletionsSkipped
        seconds = report.seconds
    }
}

/// The two roots of a sync as full locations, and a relative path under each.
struct SyncRoots: Sendable {
    var sourceRoot: String
    var destinationRoot: String

    func source(_ relative: String) -> String { Self.joined(sourceRoot, relative) }
    func destination(_ relative: String) -> String { Self.joined(destinationRoot, relative) }

    static func joined(_ root: String, _ relative: String) -> String {
        guard !relative.isEmpty, relative != "." else { return root }
        return root.hasSuffix("/") || root.hasSuffix(":") ? root + relative : root + "/" + relative
    }
}

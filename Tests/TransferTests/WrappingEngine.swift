@testable import HTTP

/// A test engine around a real one: what it does not look at goes to the engine it wraps as it came.
protocol WrappingEngine: HTTPEngine {
    /// The real engine.
    var engine: any HTTPEngine { get }
}

extension WrappingEngine {
    var versionDescription: String { engine.versionDescription }
    var fileBodyPieceLimit: Int64? { engine.fileBodyPieceLimit }
    var uploadBodyPieceLimit: Int64? { engine.uploadBodyPieceLimit }

    func settleTasks(labelled prefix: String) async { await engine.settleTasks(labelled: prefix) }

    func releaseTask(labelled label: String) async { await engine.releaseTask(labelled: label) }
}

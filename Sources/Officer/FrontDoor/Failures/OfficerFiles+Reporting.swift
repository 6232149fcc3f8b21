import FileModel

/// The front door's public calls throw one error type: what any layer throws becomes an ``OfficerFilesError``
/// here, at the boundary, in this front door's terms, naming the call's location when the failure names none.
/// The same boundary puts the front door's ``Plugins`` in force for the work.
extension OfficerFiles {
    /// Runs `body` with this front door's plug-ins; its error as this front door reports it.
    func reporting<Value>(_ subject: Location?, _ body: () async throws -> Value) async throws(OfficerFilesError)
        -> Value
    {
        do {
            return try await PluginScope.$overrides.withValue(configuration.plugins.scope) { try await body() }
        } catch {
            throw OfficerFilesError(error, terms: locationNames, about: subject?.description)
        }
    }

    /// `operation` failing with this front door's error (typed), in its terms, naming `subject` when the failure
    /// names none.
    func reported<Event: Sendable, Success: Sendable>(
        _ subject: Location?, _ operation: ProgressOperation<Event, Success, any Error>
    ) -> ProgressOperation<Event, Success, OfficerFilesError> {
        let terms = locationNames
        return operation.failing { error in
            error as? OfficerFilesError ?? OfficerFilesError(error, terms: terms, about: subject?.description)
        }
    }

    /// A stream that fails at once with `error`, reported.
    func failing<Element: Sendable>(_ error: any Error, _ subject: Location?) -> AsyncThrowingStream<Element, any Error>
    {
        let report = OfficerFilesError(error, terms: locationNames, about: subject?.description)
        return AsyncThrowingStream { $0.finish(throwing: report) }
    }
}

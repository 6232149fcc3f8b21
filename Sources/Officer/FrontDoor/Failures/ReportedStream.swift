import FileModel

/// A stream of the front door's results that fails with its one error type, typed (``OfficerFilesError``): a
/// folder's pages, a walk's entries. Read it once; leaving the loop early stops the work behind it.
public struct ReportedStream<Element: Sendable>: AsyncSequence, Sendable {
    /// What the stream fails with.
    public typealias Failure = OfficerFilesError

    private let base: AsyncThrowingStream<Element, any Error>
    private let report: @Sendable (any Error) -> OfficerFilesError

    /// `base` with its failure reported through `report` (one already reported passes as it is).
    init(_ base: AsyncThrowingStream<Element, any Error>, report: @escaping @Sendable (any Error) -> OfficerFilesError)
    {
        self.base = base
        self.report = report
    }

    /// Reads the stream.
    public func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), report: report) }

    /// Reads the elements; the failure, if the stream ends with one, as an ``OfficerFilesError``.
    public struct Iterator: AsyncIteratorProtocol {
        /// What the stream fails with.
        public typealias Failure = OfficerFilesError

        var base: AsyncThrowingStream<Element, any Error>.Iterator
        let report: @Sendable (any Error) -> OfficerFilesError

        /// The next element, or nil at the end.
        public mutating func next() async throws(OfficerFilesError) -> Element? {
            do {
                return try await base.next()
            } catch {
                throw error as? OfficerFilesError ?? report(error)
            }
        }

        // No `next(isolation:)` of its own: the stream's would need iOS 18 / macOS 15, above the package's floor;
        // the protocol's default calls `next()`.
    }
}

extension OfficerFiles {
    /// `stream` as a ``ReportedStream`` in this front door's terms, naming `subject` when a failure names none.
    func reportedStream<Element: Sendable>(_ subject: Location?, _ stream: AsyncThrowingStream<Element, any Error>)
        -> ReportedStream<Element>
    {
        let terms = locationNames
        return ReportedStream(stream) { OfficerFilesError($0, terms: terms, about: subject?.description) }
    }
}

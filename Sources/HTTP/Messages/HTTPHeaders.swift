/// Ordered HTTP header fields with case-insensitive lookup.
public struct HTTPHeaders: Sendable, Hashable, Sequence {
    private var fields: [Field]

    /// One header field.
    public struct Field: Sendable, Hashable {
        /// Field name as sent or received.
        public var name: String
        /// Field value, trimmed.
        public var value: String
    }

    /// Creates headers from name/value pairs.
    public init(_ pairs: [(String, String)] = []) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of `name`, compared case-insensitively.
    public subscript(name: String) -> String? {
        let lowered = name.lowercased()
        return fields.first { $0.name.lowercased() == lowered }?.value
    }

    /// Appends a field.
    public mutating func add(_ name: String, _ value: String) { fields.append(Field(name: name, value: value)) }

    /// Parses one raw header line as libcurl delivers it (`Name: value\r\n`); ignores status and blank lines.
    package mutating func addRawLine(_ line: Substring) {
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon]
        let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t\r\n")
        add(String(name), value)
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}

extension Substring {
    /// The slice without leading and trailing characters of `set`.
    package func trimmingCharacters(in set: String) -> String {
        var slice = self
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}

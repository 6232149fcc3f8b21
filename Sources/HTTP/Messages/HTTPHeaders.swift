/// Ordered HTTP header fields with case-insensitive lookup.
package struct HTTPHeaders: Sendable, Hashable, Sequence {
    private var fields: [Field]

    /// One header field.
    package struct Field: Sendable, Hashable {
        /// Field name as sent or received.
        package var name: String
        /// Field value, trimmed.
        package var value: String
    }

    /// Creates headers from name/value pairs.
    package init(_ pairs: [(String, String)] = []) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of `name`, compared case-insensitively.
    package subscript(name: String) -> String? {
        let lowered = name.lowercased()
        return fields.first { $0.name.lowercased() == lowered }?.value
    }

    /// Appends a field.
    package mutating func add(_ name: String, _ value: String) { fields.append(Field(name: name, value: value)) }

    /// Parses one raw header line as libcurl delivers it (`Name: value\r\n`); ignores status and blank lines.
    package mutating func addRawLine(_ line: Substring) {
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon]
        let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t\r\n")
        add(String(name), value)
    }

    /// Iterates the fields in order.
    package func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
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

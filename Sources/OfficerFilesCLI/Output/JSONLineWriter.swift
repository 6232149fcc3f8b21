/// One JSON object written field by field, as `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes`
/// writes it: for records printed by the thousand (`info --json` over a folder), where the encoder's generic
/// path cost more than reading the files' types (`JSONLineWriterTests` holds the two outputs equal). The caller
/// adds the fields in sorted key order; a nil value is left out, as the encoder leaves it.
struct JSONLineWriter {
    private(set) var text = "{"
    private var empty = true

    /// The object so far, closed.
    var line: String { text + "}" }

    mutating func add(_ key: String, _ value: String?) {
        guard let value else { return }
        self.key(key)
        Self.quote(value, into: &text)
    }

    mutating func add(_ key: String, _ value: Int?) {
        guard let value else { return }
        self.key(key)
        text += String(value)
    }

    mutating func add(_ key: String, _ value: Int64) { add(key, Int(value)) }

    mutating func add(_ key: String, _ value: Bool) {
        self.key(key)
        text += value ? "true" : "false"
    }

    mutating func add(_ key: String, _ value: Double?) {
        guard let value else { return }
        self.key(key)
        var number = value.description  // the shortest digits that read back as the value, as the encoder's
        if number.hasSuffix(".0") { number.removeLast(2) }
        text += number
    }

    mutating func add(_ key: String, _ values: [String]?) {
        guard let values else { return }
        self.key(key)
        text += "["
        for (index, value) in values.enumerated() {
            if index > 0 { text += "," }
            Self.quote(value, into: &text)
        }
        text += "]"
    }

    /// A nested object, written by `fields` (nothing when `present` is false).
    mutating func add(_ key: String, present: Bool, _ fields: (inout JSONLineWriter) -> Void) {
        guard present else { return }
        self.key(key)
        var nested = JSONLineWriter()
        fields(&nested)
        text += nested.line
    }

    private mutating func key(_ key: String) {
        if !empty { text += "," }
        empty = false
        Self.quote(key, into: &text)
        text += ":"
    }

    /// A JSON string: `"` and `\` escaped, control characters as `\n`-style or `\u00XX` escapes, the rest as is.
    static func quote(_ value: String, into text: inout String) {
        text += "\""
        let utf8 = value.utf8
        guard utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            text += value
            text += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}

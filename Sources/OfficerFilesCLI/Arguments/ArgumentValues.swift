import FileModel

/// Option values every command reads the same way.
enum ArgumentValues {
    /// A rate in bytes per second: `500K`, `2M`, `2M/s`.
    static func rate(_ text: String, option: String) throws(ArgumentError) -> Int64 {
        let trimmed = text.hasSuffix("/s") ? String(text.dropLast(2)) : text
        guard let value = ByteCountFormat.parse(trimmed), value > 0 else {
            throw .invalidValue(option: option, value: text, reason: "a rate such as 500K or 2M")
        }
        return value
    }
}

/// A count with its noun in the right number: "1 entry", "2 entries", "0 files".
package enum CountFormat {
    /// `count` and `singular`, or `plural` (default: `singular` + "s") for any count but one.
    package static func string(_ count: some BinaryInteger, _ singular: String, _ plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }
}

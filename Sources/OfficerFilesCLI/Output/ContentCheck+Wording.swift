import Transfer

extension ContentCheck {
    /// What a download checked by its length alone is said to be, by `get` and by a sync's summary alike.
    static let sizeOnlyWords = "checked by size only (the server offers no checksum)"
}

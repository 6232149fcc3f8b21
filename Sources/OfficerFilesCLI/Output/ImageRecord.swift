/// An image made from another (`image prepare`, `thumb`), in JSON: schemas `prepared-image` and `thumbnail`.
struct ImageRecord: Encodable, Sendable {
    /// The image it was made of (a local path, `officer:/x`).
    var source: String
    /// The file written.
    var destination: String
    var width: Int
    var height: Int
    /// Bytes of the file written.
    var size: Int64
    /// `image prepare`: `jpeg`, `png` or `webp`.
    var format: String?
    /// `image prepare`: true when the original was kept (it already fit and was smaller).
    var original: Bool?
    /// `thumb`: where it came from: `cache`, `server`, `embedded`, `rendered` or `local`.
    var origin: String?
}

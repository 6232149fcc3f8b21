/// A file sent ahead of a chat message (`POST /api/upload`): the message names it by ``id`` (its
/// `attachmentIds`) instead of carrying the bytes.
public struct Attachment: Sendable, Equatable, Codable {
    /// The server's id for it (32 hex digits on the reference server).
    public var id: String
    /// The name it was sent under.
    public var name: String
    /// Bytes stored.
    public var size: Int64
    /// Its media type, as the server recorded it.
    public var mime: String

    /// An attachment as the server described it.
    package init(id: String, name: String, size: Int64, mime: String) {
        self.id = id
        self.name = name
        self.size = size
        self.mime = mime
    }
}

/// The answer to `POST /api/upload`.
package struct AttachmentsResponse: Sendable, Decodable {
    /// The stored attachments, in the order sent.
    package var attachments: [Attachment]
}

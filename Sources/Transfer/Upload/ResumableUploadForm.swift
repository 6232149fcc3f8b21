/// Which of the two resumable upload forms an upload prefers when the server offers both.
public enum ResumableUploadForm: String, Sendable, Codable, CaseIterable {
    /// tus 1.0 (per-chunk checksums, parallel parts), then the IETF form.
    case automatic
    /// tus 1.0 first: the same as ``automatic``, said outright.
    case tus
    /// The IETF form (draft-ietf-httpbis-resumable-upload, what URLSession's background sessions resume) first.
    case ietf
}

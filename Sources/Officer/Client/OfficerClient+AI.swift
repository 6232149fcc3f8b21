import FileModel
import HTTP
import Transfer

extension OfficerClient {
    /// Runs `ocr` or `transcribe` on a server file and returns the text (`POST /api/file-browser/ACTION`).
    public func text(of action: AIAction, _ request: AIActionRequest) async throws(OfficerError) -> AITextResponse {
        try await call("POST", "/api/file-browser/" + action.rawValue, body: request, subject: request.path)
    }

    /// Runs `tts` or `extract-audio` and returns the file the server wrote.
    public func produce(_ action: AIAction, _ request: AIActionRequest) async throws(OfficerError) -> AIFileResponse {
        try await call("POST", "/api/file-browser/" + action.rawValue, body: request, subject: request.path ?? request.output)
    }

    /// The same client with a different HTTP configuration (an AI action may work for minutes without a byte
    /// on the wire, longer than the usual stall timeout).
    public func with(http: HTTPClient) -> OfficerClient {
        OfficerClient(server: server, token: token, http: http)
    }
}

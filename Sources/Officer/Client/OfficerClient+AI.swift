import FileModel
import HTTP
import Transfer

extension OfficerClient {
    /// Runs `ocr` or `transcribe` on a server file and returns the text (`POST /api/file-browser/ACTION`). A
    /// server that answers 202 (a long transcription) is followed through its job; `onJob` sees its changes.
    /// `timeout` bounds the wait for a job (seconds).
    package func text(
        of action: AIAction, _ request: AIActionRequest, timeout: Double? = nil, onJob: (@Sendable (Job) -> Void)? = nil
    ) async throws(OfficerError) -> AITextResponse {
        let path = "/api/file-browser/" + action.rawValue
        let answer = try await start(path, body: request, subject: request.path, as: AITextResponse.self)
        return try await finish(answer, request: "POST \(path)", timeout: timeout, onChange: onJob)
    }

    /// Runs `tts` or `extract-audio` and returns the file the server wrote, following a job as ``text(of:_:timeout:onJob:)``.
    package func produce(
        _ action: AIAction, _ request: AIActionRequest, timeout: Double? = nil, onJob: (@Sendable (Job) -> Void)? = nil
    ) async throws(OfficerError) -> AIFileResponse {
        let path = "/api/file-browser/" + action.rawValue
        let answer = try await start(
            path, body: request, subject: request.path ?? request.output, as: AIFileResponse.self)
        return try await finish(answer, request: "POST \(path)", timeout: timeout, onChange: onJob)
    }

    /// The same client with a different HTTP configuration (an AI action may work for minutes without a byte
    /// on the wire, longer than the usual stall timeout).
    package func with(http: HTTPClient) -> OfficerClient {
        OfficerClient(server: server, token: token, http: http, offers: offers)
    }
}

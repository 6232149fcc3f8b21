import FileModel
import Foundation
import HTTP
import Transfer

/// An AI action under way: its steps (upload, processing, download), then its result.
package typealias RemoteActionOperation = ProgressOperation<RemoteActionEvent, RemoteActionResult, any Error>

extension OfficerFiles {
    /// Runs one of the server's AI actions (OCR, text to speech, transcription, audio extraction) on an Officer file,
    /// a local file (uploaded into the inbox and removed afterwards) or a text: the target's kind is checked first
    /// (nothing is sent for one that does not fit), a cached result for unchanged content answers without the
    /// server, and `timeout` bounds the server's work.
    package func runAction(_ request: RemoteActionRequest, timeout: Double = 300) -> RemoteActionOperation {
        RemoteActionOperation { report in
            try await self.actionRunner(for: request, timeout: timeout).run(request, onEvent: report)
        }
    }

    /// The runner for `request`: the server its Officer file is on (a named remote's for `work:/…`), the default
    /// server for a local file or a text.
    package func actionRunner(for request: RemoteActionRequest, timeout: Double = 300) throws -> RemoteActionRunner {
        let server: OfficerServer
        if case .remote(let path) = request.target { server = try self.server(of: path) } else { server = self.server }
        return try server.actionRunner(timeout: timeout)
    }
}

extension OfficerServer {
    /// The runner of actions on this server: its client, the shared journal and cache.
    package func actionRunner(timeout: Double = 300) throws -> RemoteActionRunner {
        RemoteActionRunner(client: try client, journal: try journal, cache: try usableCache(), timeout: timeout)
    }
}

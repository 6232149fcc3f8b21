import Foundation
import Platform

/// Bytes a library call writes to a file descriptor, shown on the terminal through ``Console/writeOutput(_:)``
/// (escaped there): the call gets a pipe's write end, and a thread of its own copies the read end across.
enum TerminalPipe {
    static func run(_ console: Console, _ body: (Int32) async throws -> Void) async throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw CLIError.usage("cannot show the file: \(String(cString: strerror(errno)))")
        }
        let (reader, writer) = (ends[0], ends[1])
        let copied = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = SystemCalls.retryingInterrupts {
                    buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
                }
                guard count > 0 else { break }
                console.writeOutput(Data(buffer[0..<count]))
            }
            console.finishOutput()
            close(reader)
            copied.signal()
        }
        do {
            try await body(writer)
        } catch {
            close(writer)
            await Task.detached { copied.wait() }.value
            throw error
        }
        close(writer)
        await Task.detached { copied.wait() }.value
    }
}

import FileModel
import Foundation
import HTTP
import Preview
import Transfer

extension OfficerFiles {
    /// What local files are and how the viewer would show them (type, viewer, actions, image, text and PDF
    /// facts), read on every core at once; results in the order of `paths`.
    package func facts(ofLocalFiles paths: [String]) async -> [Result<FileFacts, any Error>] {
        let read = try? await ParallelRunner.map(paths, width: ProcessInfo.processInfo.activeProcessorCount) { path in
            Result { try FileFacts.local(path) }
        }
        // Cancelled: no file's facts are told.
        return read ?? paths.map { _ in .failure(CancellationError()) }
    }

    /// The facts of several files in the order given, as a stream: the files on this machine are read on every
    /// core at once before the first result, remote ones one request at a time as the stream goes on; the
    /// reader's end stops the requests not yet made.
    package func facts(of locations: [Location]) -> AsyncStream<Result<FileFacts, any Error>> {
        AsyncStream { continuation in
            let work = Task {
                let here = locations.indices.filter { !locations[$0].isRemote }
                let read = await facts(ofLocalFiles: here.map { locations[$0].description })
                let readHere = Dictionary(uniqueKeysWithValues: zip(here, read))
                for (index, location) in locations.enumerated() {
                    if Task.isCancelled { break }
                    if let result = readHere[index] {
                        continuation.yield(result)
                    } else {
                        do throws(OfficerFilesError) {
                            continuation.yield(.success(try await facts(of: location)))
                        } catch {
                            continuation.yield(.failure(error))
                        }
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in work.cancel() }
        }
    }

}

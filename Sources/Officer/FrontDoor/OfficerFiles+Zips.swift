import FileModel
import Foundation
import HTTP
import Preview
import Transfer

extension OfficerFiles {
    /// Downloads one zip of files and folders on one remote that makes zips (an Officer server: see
    /// ``downloadZip(of:to:options:)-(RemotePath)``); a place on another remote is refused by name.
    package func downloadZip(
        of locations: [Location], to destination: String, options: DownloadOptions = DownloadOptions()
    ) -> TransferOperation<DownloadResult> {
        TransferOperation { report in
            guard let first = locations.first else { throw FrontDoorRefusal.invalidValue("nothing to zip") }
            return try await self.reporting(first) {
                if let other = locations.first(where: { $0.remoteName != first.remoteName }) {
                    throw FrontDoorRefusal.invalidValue(
                        "\(other): not on the server of \(first) (a zip is made by one server)")
                }
                var names: [String: Location] = [:]
                for location in locations {
                    if let earlier = names.updateValue(location, forKey: location.name) {
                        throw FrontDoorRefusal.invalidValue(
                            "\(location): a zip holds one member of each name, and \(earlier) is \(location.name) too")
                    }
                }
                do {
                    let operation = try self.remote(for: first).downloadZip(
                        of: locations, to: destination, options: options)
                    for await event in operation { report(event) }
                    return try await operation.value
                } catch  where ErrorCategory.of(error) == .notFound {
                    // The server's answer names no path: the one missing says so itself.
                    for location in locations { _ = try await self.entry(location) }
                    throw error
                }
            }
        }
    }
}

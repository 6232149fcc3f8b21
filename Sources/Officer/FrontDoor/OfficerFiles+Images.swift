import FileModel
import Foundation
import Preview

/// What preparing one image did.
package struct ImagePreparationOutcome: Sendable {
    /// The source image.
    package var input: String
    /// Where the prepared copy was to go.
    package var output: String
    /// The prepared copy, or why there is none.
    package var result: Result<PreparedImage, ImageError>
}

extension OfficerFiles {
    /// Prepares local images (resized to a longest edge, re-encoded, metadata stripped) on every core. One input
    /// goes to the file `output`, or into it when it is an existing folder; several go into the existing folder
    /// `output`, each named after its input with the output format's extension. Nothing is overwritten without
    /// `overwrite`, and an input never. Outcomes keep the inputs' order; a damaged image fails alone.
    package func prepareImages(
        _ inputs: [String], to output: String, options: ImagePreparationOptions, overwrite: Bool = false
    ) async throws -> [ImagePreparationOutcome] {
        // Several inputs, or an output written as a folder (`out/`), go into a folder, made when missing; never
        // one named like an image file (`a.jpg b.jpg one.jpg` forgot the folder).
        var exists: ObjCBool = false
        if inputs.count > 1, !output.hasSuffix("/"), ImageOutputFormat(fileName: output) != nil,
            !FileManager.default.fileExists(atPath: output, isDirectory: &exists)
        {
            throw FrontDoorRefusal.invalidValue(
                "\(output): several images go into a folder, and this names an image file; give a folder (out/)")
        }
        if inputs.count > 1 || output.hasSuffix("/") { try LocalFiles.makeOutputFolder(output) }
        var isDirectory: ObjCBool = false
        let intoFolder =
            FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) && isDirectory.boolValue
        let preparer = ImagePreparer(options: options)
        return try await ParallelRunner.map(inputs, width: ProcessInfo.processInfo.activeProcessorCount) { input in
            var destination = output
            let result = Result { () throws(ImageError) -> PreparedImage in
                if intoFolder {
                    let name = (input as NSString).lastPathComponent
                    destination = (output as NSString).appendingPathComponent(
                        (try preparer.outputFormat(for: input)).name(for: name))
                }
                return try preparer.prepareFile(input, to: destination, overwrite: overwrite)
            }
            return ImagePreparationOutcome(input: input, output: destination, result: result)
        }
    }

}

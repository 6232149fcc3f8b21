import Foundation
import OfficerFilesCLI

// Writing to a closed pipe (`officer-files ls | head`) must end quietly, not kill us mid-write.
signal(SIGPIPE, SIG_IGN)
// The words as the system passed them: CommandLine.arguments repairs a word that is not UTF-8 into another
// (`caf\xe9.txt` becomes `caf\u{FFFD}.txt`), which then names no file.
let words = UnsafeBufferPointer(start: CommandLine.unsafeArgv, count: Int(CommandLine.argc)).dropFirst().map { word in
    word.map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? []
}
exit(await OfficerFilesApp.run(commandLine: words))

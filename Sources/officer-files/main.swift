import Foundation
import OfficerFilesCLI

// Writing to a closed pipe (`officer-files ls | head`) must end quietly, not kill us mid-write.
signal(SIGPIPE, SIG_IGN)
exit(await OfficerFilesApp.run(arguments: Array(CommandLine.arguments.dropFirst())))

import Foundation
import TestSupport
import Testing

@testable import OfficerFilesCLI

/// `make install`, the completions, the man page and `make deb`, as a user installs and uses them: one release
/// build shared by every step (`make test-products` builds it, then runs this test; `make test` skips it).
@Suite struct InstallTests {
    let cli = CLIRunner()
    let work = TemporaryDirectory(prefix: "install-work")

    func make(_ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.runDetached(
            "/usr/bin/make", ["-C", ProcessRunner.packageRoot, "--no-print-directory"] + arguments)
    }

    func shell(_ path: String, _ script: String, environment: [String: String]) async throws -> ProcessResult {
        try await ProcessRunner.runDetached(path, ["-c", script], environment: environment)
    }

    static var version: String {
        ((try? String(contentsOfFile: ProcessRunner.packageRoot + "/VERSION", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Not one of the heavy tests: run after the release build (`make test-products`); a plain `swift test`
    /// builds the release here, and a test in the heavy chain waiting for that would hold the others back.
    @Test func installsCompletesDocumentsAndPackages() async throws {
        try await installAndUninstall()
        try await package()
    }

    func installAndUninstall() async throws {
        let prefix = work.file("prefix")
        let installed = try await make(["install", "PREFIX=\(prefix)"])
        try #require(installed.status == 0, "\(installed.stdout)\(installed.stderr)")
        let files = [
            "bin/officer-files", "share/bash-completion/completions/officer-files",
            "share/zsh/site-functions/_officer-files",
            "share/fish/vendor_completions.d/officer-files.fish", "share/man/man1/officer-files.1",
        ]
        for file in files { #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file)") }

        // Moved elsewhere and run from another folder, with no toolchain on the PATH: nothing points back.
        let moved = work.file("moved")
        try FileManager.default.moveItem(atPath: prefix, toPath: moved)
        let binary = moved + "/bin/officer-files"
        let version = try await ProcessRunner.runDetached(
            binary, ["--version"], environment: ["PATH": "/usr/bin:/bin"], currentDirectory: "/")
        #expect(
            version.status == 0 && version.stdout.hasPrefix("officer-files \(Self.version)"),
            "\(version.stdout)\(version.stderr)")
        if FileManager.default.fileExists(atPath: ProcessRunner.packageRoot + "/.git") {
            #expect(
                version.stdout.range(of: #"^officer-files [0-9][^ ]* \([0-9a-f]{7}\)"#, options: .regularExpression)
                    != nil, "\(version.stdout)")
        }
        let libraries = try await ProcessRunner.runDetached("/usr/bin/ldd", [binary])
        let toolchain =
            ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/usr/bin/swift"))
                ?? "/opt/swift/usr/bin/swift")
        let toolchainRoot = ((toolchain as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        #expect(
            !libraries.stdout.contains("libswift") && !libraries.stdout.contains("not found"), "\(libraries.stdout)")
        #expect(!libraries.stdout.contains(toolchainRoot + "/"), "\(libraries.stdout)")
        let dynamic = try await ProcessRunner.runDetached("/usr/bin/readelf", ["-d", binary])
        #expect(
            !dynamic.stdout.contains(".build") && !dynamic.stdout.contains(ProcessRunner.packageRoot),
            "\(dynamic.stdout)")
        try await expectStripped(binary)

        try await completions(moved)
        try await manual(moved + "/share/man/man1/officer-files.1")

        let removed = try await make(["uninstall", "PREFIX=\(moved)"])
        #expect(removed.status == 0, "\(removed.stderr)")
        let left = (FileManager.default.enumerator(atPath: moved)?.allObjects as? [String] ?? []).filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: moved + "/" + path, isDirectory: &isFolder)
                && !isFolder.boolValue
        }
        #expect(left.isEmpty, "uninstall leaves \(left)")
    }

    /// bash completes commands, options and remote paths from the cached listing (the server is gone by then);
    /// zsh and fish accept their scripts.
    func completions(_ prefix: String) async throws {
        let server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
        try FileManager.default.createDirectory(
            atPath: server.root.file("Documents"), withIntermediateDirectories: true)
        #expect(try await cli.run(["ls", "officer:/"]).status == 0)
        server.service.stop()
        var environment = cli.environment()
        environment["PATH"] = prefix + "/bin:/usr/bin:/bin"
        let script = prefix + "/share/bash-completion/completions/officer-files"
        func complete(_ line: String) async throws -> [String] {
            let run = try await shell(
                "/bin/bash",
                """
                source '\(script)'
                COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}; COMP_WORDBREAKS=$' \\t\\n"\\'><=;|&(:'
                _officer_files; printf '%s\\n' "${COMPREPLY[@]}"
                """, environment: environment)
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try await complete("officer-files sy") == ["sync"])
        #expect(try await complete("officer-files sync --del") == ["--delete"])
        // bash keeps `officer:` (its word broke at the colon) and puts the rest after it.
        #expect(try await complete("officer-files ls officer:/Do") == ["/Documents/"])
        #expect(try await complete("officer-files image prepare --format ") == ["jpeg", "webp", "keep"])
        // Every option with a fixed set of values completes them (extract-audio's completed none).
        #expect(try await complete("officer-files extract-audio --format ") == ["mp3", "wav", "ogg", "m4a"])
        #expect(try await complete("officer-files get --checksum sh") == ["sha256:"])

        let zsh = try await ProcessRunner.runDetached(
            "/usr/bin/zsh", ["-n", prefix + "/share/zsh/site-functions/_officer-files"])
        #expect(zsh.status == 0, "\(zsh.stderr)")
        let fish = try await ProcessRunner.runDetached(
            "/usr/bin/fish", ["--no-execute", prefix + "/share/fish/vendor_completions.d/officer-files.fish"])
        #expect(fish.status == 0, "\(fish.stderr)")
    }

    /// A remote name with a space or a quote completes as one word in bash and zsh: the words reach the program
    /// unquoted (an escaped space does not end the word), and what goes back on the line is quoted as the shell
    /// reads it.
    @Test func namesWithSpacesCompleteAsOneWord() async throws {
        let server = try await ReferenceServer.start()
        #expect(try await cli.login(server).status == 0)
        _ = try server.root.write("X/with space/in.txt", "in\n")
        #expect(try await cli.run(["ls", "officer:/X"]).status == 0)
        #expect(try await cli.run(["ls", "officer:/X/with space"]).status == 0)
        server.service.stop()
        let bin = work.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: bin + "/officer-files", withDestinationPath: ProcessRunner.cliPath)
        var environment = cli.environment()
        environment["PATH"] = bin + ":/usr/bin:/bin"
        let bash = work.file("officer-files.bash"), zsh = work.file("_officer-files")
        try (try await cli.run(["completion", "bash"])).stdout.write(toFile: bash, atomically: true, encoding: .utf8)
        try (try await cli.run(["completion", "zsh"])).stdout.write(toFile: zsh, atomically: true, encoding: .utf8)

        func bashComplete(_ line: String) async throws -> [String] {
            var env = environment
            env["LINE"] = line
            let run = try await shell(
                "/bin/bash",
                """
                source '\(bash)'
                COMP_LINE="$LINE"; COMP_POINT=${#COMP_LINE}; COMP_WORDBREAKS=$' \\t\\n"\\'><=;|&(:'
                _officer_files; printf '%s\\n' "${COMPREPLY[@]}"
                """, environment: env)
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try await bashComplete("officer-files ls officer:/X/wi") == [#"/X/with\ space/"#])
        #expect(try await bashComplete(#"officer-files ls officer:/X/with\ s"#) == [#"/X/with\ space/"#])
        #expect(try await bashComplete(#"officer-files ls officer:/X/with\ space/"#) == [#"/X/with\ space/in.txt"#])
        #expect(try await bashComplete(#"officer-files ls "officer:/X/with s"#) == ["officer:/X/with space/"])
        #expect(try await bashComplete("officer-files ls officer:/X/") == [#"/X/with\ space/"#])

        // zsh, in a pseudo-terminal: what the line holds after TAB. The widget bound to ^X writes the line into a
        // FIFO this shell holds open for reading and writing, so the read waits for that line itself (however long
        // a loaded machine takes to complete it) and opening the FIFO never blocks either side.
        func zshComplete(_ line: String) async throws -> String {
            let fifo = work.file("zsh-\(UUID().uuidString).fifo")
            var env = environment
            env["LINE"] = line
            let run = try await shell(
                "/usr/bin/zsh",
                """
                zmodload zsh/zpty
                mkfifo '\(fifo)' && exec {answer}<>'\(fifo)'
                zpty z 'zsh -f -i'
                zpty -w z "autoload -Uz compinit; compinit -u -D; source '\(zsh)'"
                zpty -w z "show() { print -r -- \\"<\\$BUFFER>\\" > '\(fifo)' }; zle -N show; bindkey '^X' show"
                zpty -w -n z "$LINE"$'\\t'$'\\x18'
                read -r -t 600 -u $answer shown
                zpty -d z
                print -r -- "$shown"
                """, environment: env)
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(
            try await zshComplete("officer-files ls officer:/X/wi") == #"<officer-files ls officer:/X/with\ space/>"#)
        #expect(
            try await zshComplete(#"officer-files ls officer:/X/with\ s"#)
                == #"<officer-files ls officer:/X/with\ space/>"#)
    }

    /// The page renders without a warning and names every command.
    func manual(_ page: String) async throws {
        // As man shows it in a UTF-8 terminal (plain text: no bold or underline codes).
        let rendered = try await ProcessRunner.runDetached(
            "/usr/bin/groff", ["-man", "-ww", "-Tutf8", "-P-cbou", page],
            environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
        let text = rendered.stdout.replacingOccurrences(of: "\u{2212}", with: "-").replacingOccurrences(
            of: "\u{2010}", with: "-")
        func leaves(_ spec: CommandSpec, _ chain: [String]) -> [String] {
            let name = chain + [spec.name]
            return spec.subcommands.isEmpty
                ? [name.joined(separator: " ")] : spec.subcommands.flatMap { leaves($0, name) }
        }
        for command in OfficerFilesApp.rootSpec.subcommands.flatMap({ leaves($0, ["officer-files"]) }) {
            #expect(text.contains(command), "the page lacks \(command)")
        }
        for section in ["SYNOPSIS", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES"] {
            #expect(text.contains(section))
        }
    }

    /// `make deb`: the package's dependencies, its binary, and (as root) dpkg -i, the command, dpkg -r.
    func package() async throws {
        let built = try await make(["deb"])
        try #require(built.status == 0, "\(built.stdout)\(built.stderr)")
        let deb = try #require(
            built.stdout.split(separator: "\n").last.map(String.init).flatMap { $0.hasSuffix(".deb") ? $0 : nil })
        let path = deb.hasPrefix("/") ? deb : ProcessRunner.packageRoot + "/" + deb
        let depends = try await ProcessRunner.runDetached("/usr/bin/dpkg-deb", ["-f", path, "Depends"])
        #expect(
            depends.stdout.contains("libc6") && depends.stdout.contains("libcurl4")
                && depends.stdout.contains("libvips42"), "\(depends.stdout)")
        #expect(
            try await ProcessRunner.runDetached("/usr/bin/dpkg-deb", ["-f", path, "Version"]).stdout.trimmingCharacters(
                in: .whitespacesAndNewlines) == Self.version)
        let unpacked = work.file("unpacked")
        #expect(try await ProcessRunner.runDetached("/usr/bin/dpkg-deb", ["-x", path, unpacked]).status == 0)
        try await expectStripped(unpacked + "/usr/bin/officer-files")
        let version = try await ProcessRunner.runDetached(
            unpacked + "/usr/bin/officer-files", ["--version"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(version.status == 0 && version.stdout.hasPrefix("officer-files \(Self.version)"), "\(version.stderr)")
        guard getuid() == 0, !FileManager.default.fileExists(atPath: "/usr/bin/officer-files") else { return }
        let installed = try await ProcessRunner.runDetached("/usr/bin/dpkg", ["-i", path])
        #expect(installed.status == 0, "\(installed.stdout)\(installed.stderr)")
        let run = try await ProcessRunner.runDetached(
            "/usr/bin/officer-files", ["--version"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == 0 && run.stdout.hasPrefix("officer-files \(Self.version)"), "\(run.stderr)")
        let gone = try await ProcessRunner.runDetached("/usr/bin/dpkg", ["-r", "officer-files"])
        #expect(gone.status == 0 && !FileManager.default.fileExists(atPath: "/usr/bin/officer-files"), "\(gone.stderr)")
    }

    /// Stripped as Debian strips: no symbol table, no debug sections, no path of the checkout's build (it shipped
    /// 85 MiB with both).
    func expectStripped(_ binary: String) async throws {
        let sections = try await ProcessRunner.runDetached("/usr/bin/readelf", ["-S", "-W", binary])
        #expect(
            sections.status == 0 && !sections.stdout.contains(".debug_") && !sections.stdout.contains(".symtab"),
            "\(binary): \(sections.stdout)")
        let strings = try await ProcessRunner.runDetached("/usr/bin/strings", [binary])
        let paths = strings.stdout.split(separator: "\n").filter {
            $0.contains(".build/") || $0.contains(ProcessRunner.packageRoot + "/")
        }
        #expect(paths.isEmpty, "\(binary) names the build: \(paths.prefix(5))")
        let size = try FileManager.default.attributesOfItem(atPath: binary)[.size] as? Int ?? 0
        #expect(size < 80 << 20, "\(binary): \(size) bytes")
    }

    /// The page's examples are the README's, word for word.
    @Test func theManualsExamplesAreTheReadmes() throws {
        let readme = try String(contentsOfFile: ProcessRunner.packageRoot + "/README.md", encoding: .utf8)
        let section = try #require(readme.range(of: "## Using it"))
        let start = try #require(readme[section.upperBound...].range(of: "```sh\n"))
        let end = try #require(readme[start.upperBound...].range(of: "```\n"))
        let lines = readme[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
        #expect(lines == ManualPage.examples)
    }
}

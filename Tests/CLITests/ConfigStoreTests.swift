import Foundation
import TestSupport
import Testing

@testable import OfficerFilesCLI

@Suite struct ConfigStoreTests {
    @Test func savesAt0600AndReadsBack() throws {
        let home = TemporaryDirectory()
        let store = ConfigStore(environment: ["XDG_CONFIG_HOME": home.path])
        #expect(store.path == home.path + "/officer-files/config.json")
        #expect(try store.load() == OfficerConfig())
        let config = OfficerConfig(server: "http://127.0.0.1:1", email: "a@b", token: "t0k3n", root: "home")
        try store.save(config)
        #expect(try store.load() == config)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: home.path + "/officer-files")
        #expect((folder[.posixPermissions] as? Int) == 0o700)
    }

    /// A command parses every argument with the configuration: it is read once while the file stays as it is,
    /// and read again as soon as it changes (in place or renamed over) or is opened to others.
    @Test func theFileIsReadAgainOnlyWhenItChanged() throws {
        let home = TemporaryDirectory()
        let store = ConfigStore(environment: ["XDG_CONFIG_HOME": home.path])
        try store.save(OfficerConfig(server: "http://127.0.0.1:1", root: "home"))
        #expect(try store.load().server == "http://127.0.0.1:1")
        try Data(#"{"version":1,"root":"home","server":"http://127.0.0.1:22"}"#.utf8)
            .write(to: URL(fileURLWithPath: store.path))
        #expect(try store.load().server == "http://127.0.0.1:22")
        try store.save(OfficerConfig(server: "http://127.0.0.1:3", root: "home"))
        #expect(try store.load().server == "http://127.0.0.1:3")
        chmod(store.path, 0o644)
        #expect(throws: ConfigError.tooOpen(path: store.path, mode: 0o644)) { _ = try store.load() }
    }

    @Test func aVersionOneConfigIsReadAndANewerOneRefusedAndNeverOverwritten() throws {
        let home = TemporaryDirectory()
        let store = ConfigStore(environment: ["XDG_CONFIG_HOME": home.path])
        try FileManager.default.createDirectory(atPath: home.path + "/officer-files", withIntermediateDirectories: true)
        // What every build before versions were kept wrote: no version field.
        let old = #"{"root":"home","server":"http://127.0.0.1:1"}"#
        try Data(old.utf8).write(to: URL(fileURLWithPath: store.path))
        chmod(store.path, 0o600)
        #expect(try store.load() == OfficerConfig(server: "http://127.0.0.1:1", root: "home"))
        try store.save(try store.load())
        #expect(try String(contentsOfFile: store.path, encoding: .utf8).contains(#""version" : 1"#))

        let newer = #"{"version":5,"server":"http://127.0.0.1:1","future":{"x":1}}"#
        try Data(newer.utf8).write(to: URL(fileURLWithPath: store.path))
        #expect(throws: ConfigError.newerFormat(path: store.path, found: 5, supported: 1)) { _ = try store.load() }
        #expect(throws: ConfigError.newerFormat(path: store.path, found: 5, supported: 1)) {
            try store.save(OfficerConfig())
        }
        #expect(try String(contentsOfFile: store.path, encoding: .utf8) == newer)
        #expect(
            "\(ConfigError.newerFormat(path: store.path, found: 5, supported: 1))".contains(
                "written by a newer officer-files"))
    }

    @Test func fallsBackToHomeDotConfig() {
        #expect(ConfigStore(environment: ["HOME": "/home/x"]).path == "/home/x/.config/officer-files/config.json")
        #expect(
            ConfigStore(environment: ["HOME": "/home/x", "XDG_CONFIG_HOME": "relative"]).path.hasPrefix(
                "/home/x/.config"))
    }

    @Test func refusesAGroupReadableFile() throws {
        let home = TemporaryDirectory()
        let store = ConfigStore(environment: ["XDG_CONFIG_HOME": home.path])
        try store.save(OfficerConfig(token: "secret"))
        chmod(store.path, 0o644)
        #expect(throws: ConfigError.tooOpen(path: store.path, mode: 0o644)) { try store.load() }
        #expect(ConfigError.tooOpen(path: store.path, mode: 0o644).description.contains("chmod 600"))
    }

    @Test func namesAMalformedFile() throws {
        let home = TemporaryDirectory()
        let store = ConfigStore(environment: ["XDG_CONFIG_HOME": home.path])
        try home.write("officer-files/config.json", "{not json")
        chmod(store.path, 0o600)
        #expect {
            try store.load()
        } throws: { error in
            guard case ConfigError.malformed(let path, _) = error else { return false }
            return path == store.path
        }
    }
}

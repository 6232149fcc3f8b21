import Foundation
import TestSupport
import Testing

/// Every seed and every crash input the fuzzers ever found (Tests/Fixtures/fuzz/TARGET) replayed through the
/// same code, in the normal build: an input that once crashed stays a test.
@Suite struct FuzzRegressionTests {
    static let targets = ["archive", "image", "mime", "json", "headers", "arguments"]

    @Test(arguments: targets)
    func replaysFixtures(target: String) throws {
        let binary =
            URL(fileURLWithPath: ProcessRunner.cliPath).deletingLastPathComponent().path + "/officer-files-fuzz"
        let fixtures = ProcessRunner.packageRoot + "/Tests/Fixtures/fuzz/" + target
        let inputs = try FileManager.default.contentsOfDirectory(atPath: fixtures)
        #expect(!inputs.isEmpty)
        var environment = ProcessInfo.processInfo.environment
        environment["OFFICER_FUZZ_TARGET"] = target
        let result = try ProcessRunner.run(binary, [fixtures], environment: environment)
        #expect(result.status == 0, "\(target): \(result.stderr)")
        #expect(result.stdout == "replayed \(inputs.count) inputs through \(target)\n")
    }
}

import FileModel
import Testing

@Suite struct GlobNameTests {
    @Test func wildcardsAreToldFromNames() {
        #expect(
            GlobPattern.hasWildcards("*.jpg") && GlobPattern.hasWildcards("IMG_?.heic")
                && GlobPattern.hasWildcards("[ab].txt"))
        #expect(!GlobPattern.hasWildcards("plain.txt") && !GlobPattern.hasWildcards("star\\*.txt"))
    }

    @Test func namesMatchAsAShellMatchesThem() throws {
        let jpg = try #require(GlobPattern("*.jpg"))
        #expect(jpg.matches(name: "a.jpg") && !jpg.matches(name: "a.png") && !jpg.matches(name: ".hidden.jpg"))
        #expect(try #require(GlobPattern(".*")).matches(name: ".hidden.jpg"))
        #expect(try #require(GlobPattern("[!a]?.txt")).matches(name: "bc.txt"))
    }
}

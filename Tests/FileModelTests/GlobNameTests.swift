import FileModel
import Foundation
import Testing

@Suite struct GlobNameTests {
    @Test func wildcardsAreToldFromNames() {
        #expect(
            GlobPattern.hasWildcards("*.jpg") && GlobPattern.hasWildcards("IMG_?.heic")
                && GlobPattern.hasWildcards("[ab].txt"))
        #expect(!GlobPattern.hasWildcards("plain.txt") && !GlobPattern.hasWildcards("star\\*.txt"))
        // Read by byte: an escaped non-ASCII character, then a wildcard, is still a pattern.
        #expect(GlobPattern.hasWildcards("\\é*.txt") && !GlobPattern.hasWildcards("\\éa.txt"))
    }

    /// The last name of a path as `NSString.lastPathComponent` gives it (what a pattern is looked for in).
    @Test func theLastNameOfAPathIsWhatFollowsItsLastSlash() {
        let cases = [
            "a/b*": "b*", "a/b*/": "b*", "a/b*//": "b*", "/": "/", "name": "name", "/x/y.txt": "y.txt", "": "",
        ]
        for (path, last) in cases {
            #expect(FileName.last(ofPath: path) == last, "\(path)")
            #expect(String(FileName.last(ofPath: path)) == (path as NSString).lastPathComponent, "\(path)")
        }
    }

    @Test func namesMatchAsAShellMatchesThem() throws {
        let jpg = try #require(GlobPattern("*.jpg"))
        #expect(jpg.matches(name: "a.jpg") && !jpg.matches(name: "a.png") && !jpg.matches(name: ".hidden.jpg"))
        #expect(try #require(GlobPattern(".*")).matches(name: ".hidden.jpg"))
        #expect(try #require(GlobPattern("[!a]?.txt")).matches(name: "bc.txt"))
    }
}

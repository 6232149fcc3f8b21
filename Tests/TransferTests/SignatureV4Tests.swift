import Foundation
import Testing

@testable import Transfer

/// Request signing for S3-compatible stores against the published AWS examples, and HMAC against RFC 4231.
@Suite struct SignatureV4Tests {
    let credentials = ObjectStoreCredentials(
        accessKey: "AKIAIOSFODNN7EXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", region: "us-east-1")
    /// 2013-05-24T00:00:00Z, the examples' moment.
    let moment = Date(timeIntervalSince1970: 1_369_353_600)

    @Test func hmacMatchesRFC4231() {
        // Test case 2: key "Jefe", data "what do ya want for nothing?".
        let mac = HMACSHA256.mac(key: Array("Jefe".utf8), "what do ya want for nothing?")
        #expect(SignatureV4.hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func signsTheGetObjectExample() {
        let headers = SignatureV4(credentials: credentials).sign(
            method: "GET", url: "https://examplebucket.s3.amazonaws.com/test.txt", headers: [("Range", "bytes=0-9")],
            date: moment)
        #expect(headers.first { $0.0 == "x-amz-date" }?.1 == "20130524T000000Z")
        #expect(
            headers.first { $0.0 == "Authorization" }?.1
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
        )
    }

    @Test func canonicalFormsFollowTheRules() {
        #expect(
            SignatureV4.canonicalQuery("prefix=a%20b&list-type=2&delimiter=%2F")
                == "delimiter=%2F&list-type=2&prefix=a%20b")
        #expect(SignatureV4.canonicalQuery("uploads") == "uploads=")
        #expect(SignatureV4.canonicalPath("/bucket/photos/a%20b+c.jpg") == "/bucket/photos/a%20b%2Bc.jpg")
        #expect(SignatureV4.canonicalPath("") == "/")
        #expect(SignatureV4.trimmed("  a   b  ") == "a b")
        #expect(SignatureV4.encode("ü~/") == "%C3%BC~%2F")
    }
}

import Foundation
import OpenSSLHashing
import Testing

@testable import Transfer

/// The portable digests against the standards' own vectors and against OpenSSL's on every length around the
/// block edges, fed whole and in uneven pieces; HMAC against RFC 4231.
@Suite struct HashingTests {
    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    func digest(_ hashing: any Hashing, _ algorithm: SHA256Hasher.Algorithm, _ bytes: [UInt8], piece: Int) -> String {
        let context = hashing.makeDigest(algorithm)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + piece)
            bytes[start..<end].withUnsafeBytes { context.update($0) }
            start = end
        }
        return hex(context.finalize())
    }

    @Test func theStandardsVectors() {
        let portable = PortableHashing()
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(
            digest(portable, .sha256, [], piece: 1)
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            digest(portable, .sha256, Array("abc".utf8), piece: 1)
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            digest(portable, .sha256, long, piece: 7)
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            digest(portable, .sha256, million, piece: 4093)
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(digest(portable, .sha1, Array("abc".utf8), piece: 2) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(digest(portable, .sha1, million, piece: 65536) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        #expect(digest(portable, .md5, [], piece: 1) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(
            digest(portable, .md5, Array("The quick brown fox jumps over the lazy dog".utf8), piece: 5)
                == "9e107d9d372bb6826bd81d3542a419d6")
    }

    @Test(arguments: [SHA256Hasher.Algorithm.sha256, .sha1, .md5])
    func agreesWithOpenSSLAtEveryBlockEdge(_ algorithm: SHA256Hasher.Algorithm) {
        var state: UInt64 = 7
        let bytes = (0..<300).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 300] {
            let slice = Array(bytes.prefix(length))
            let expected = digest(OpenSSLHashing(), algorithm, slice, piece: 64)
            for piece in [1, 13, 64, 1000] {
                #expect(digest(PortableHashing(), algorithm, slice, piece: piece) == expected, "\(length) by \(piece)")
            }
        }
    }

    @Test func hmacMatchesRFC4231() {
        let key = [UInt8](repeating: 0x0b, count: 20)
        #expect(
            hex(HMACSHA256.mac(key: key, "Hi There"))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        let longKey = [UInt8](repeating: 0xaa, count: 131)
        #expect(
            hex(HMACSHA256.mac(key: longKey, "Test Using Larger Than Block-Size Key - Hash Key First"))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }
}

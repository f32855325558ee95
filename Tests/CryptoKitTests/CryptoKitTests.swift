import CryptoKit
import Testing

/// The hash functions against their standards' own examples: FIPS 180-2's appendices (SHA-1 A.1–A.3, SHA-256 B.1–B.3,
/// SHA-384 D.1–D.2, SHA-512 C.1–C.2; the same messages and digests as NIST's FIPS 180-4 example files) and RFC 1321's
/// test suite (A.5) for MD5.
@Suite struct HashFunctionTests {
    static let abc = Data("abc".utf8)
    static let twoBlocks = Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
    static let twoLongBlocks = Data(("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
        + "mnopqrstnopqrstu").utf8)

    /// The digest written as apps write it: `map { String(format: "%02x", $0) }.joined()`.
    static func hex<D: Digest>(_ digest: D) -> String { digest.map { String(format: "%02x", $0) }.joined() }

    @Test func sha256MatchesFIPS180() {
        #expect(Self.hex(SHA256.hash(data: Self.abc)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.hex(SHA256.hash(data: Self.twoBlocks)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Self.hex(SHA256.hash(data: Data())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        // B.3: one million "a", given here a thousand at a time, so the blocks span the updates.
        var function = SHA256()
        let thousand = Data(repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { function.update(data: thousand) }
        #expect(Self.hex(function.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(SHA256.byteCount == 32 && SHA256.blockByteCount == 64 && SHA256Digest.byteCount == 32)
    }

    @Test func sha384AndSHA512MatchFIPS180() {
        #expect(Self.hex(SHA384.hash(data: Self.abc))
            == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
        #expect(Self.hex(SHA384.hash(data: Self.twoLongBlocks))
            == "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039")
        #expect(Self.hex(SHA512.hash(data: Self.abc))
            == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        #expect(Self.hex(SHA512.hash(data: Self.twoLongBlocks))
            == "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909")
        #expect(SHA384.byteCount == 48 && SHA512.byteCount == 64 && SHA512.blockByteCount == 128)
    }

    @Test func insecureFunctionsMatchFIPS180AndRFC1321() {
        #expect(Self.hex(Insecure.SHA1.hash(data: Self.abc)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Self.hex(Insecure.SHA1.hash(data: Self.twoBlocks)) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(Self.hex(Insecure.MD5.hash(data: Data())) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(Self.hex(Insecure.MD5.hash(data: Self.abc)) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(Self.hex(Insecure.MD5.hash(data: Data("message digest".utf8))) == "f96b697d7cb7938d525a2f31aaf161d0")
        let digits = String(repeating: "1234567890", count: 8)
        #expect(Self.hex(Insecure.MD5.hash(data: Data(digits.utf8))) == "57edf4a22be3c955ac49da2e2107b67a")
    }

    /// A digest reads as Apple's: its description names the function, it is a sequence of its bytes, equal to the
    /// same bytes, and finalizing leaves the function usable.
    @Test func digestsBehaveAsApplesDo() {
        let digest = SHA256.hash(data: Self.abc)
        #expect(digest.description == "SHA256 digest: ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Insecure.MD5.hash(data: Self.abc).description == "MD5 digest: 900150983cd24fb0d6963f7d28e17f72")
        #expect("\(Insecure.SHA1.hash(data: Self.abc))" == "SHA1 digest: a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Array(digest).count == 32 && Data(digest).count == 32)
        #expect(digest == Data(digest) && digest != SHA256.hash(data: Self.twoBlocks))
        #expect(Set([digest, SHA256.hash(data: Self.abc)]).count == 1)
        #expect(digest.withUnsafeBytes { $0.first } == 0xba)
        var function = SHA256()
        function.update(data: Data("ab".utf8))
        _ = function.finalize()
        function.update(data: Data("c".utf8))
        #expect(function.finalize() == digest)
    }
}

/// HMAC against RFC 4231's test cases 2 and 6 (SHA-256/384/512) and RFC 2202's test case 2 (SHA-1, MD5).
@Suite struct HMACTests {
    static let jefe = SymmetricKey(data: Data("Jefe".utf8))
    static let question = Data("what do ya want for nothing?".utf8)

    static func hex<M: MessageAuthenticationCode>(_ code: M) -> String { code.map { String(format: "%02x", $0) }.joined() }

    @Test func codesMatchTheRFCs() {
        #expect(Self.hex(HMAC<SHA256>.authenticationCode(for: Self.question, using: Self.jefe))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(Self.hex(HMAC<SHA384>.authenticationCode(for: Self.question, using: Self.jefe))
            == "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649")
        #expect(Self.hex(HMAC<SHA512>.authenticationCode(for: Self.question, using: Self.jefe))
            == "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737")
        #expect(Self.hex(HMAC<Insecure.SHA1>.authenticationCode(for: Self.question, using: Self.jefe)) == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
        #expect(Self.hex(HMAC<Insecure.MD5>.authenticationCode(for: Self.question, using: Self.jefe)) == "750c783e6ab0b503eaa86e310a5db738")
        // Test case 6: a key longer than the block is hashed first.
        let long = SymmetricKey(data: Data(repeating: 0xaa, count: 131))
        let message = Data("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
        #expect(Self.hex(HMAC<SHA256>.authenticationCode(for: message, using: long))
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func codesValidateAndDescribeThemselvesAsApplesDo() {
        let code = HMAC<SHA256>.authenticationCode(for: Self.question, using: Self.jefe)
        #expect(code.description == "HMAC with SHA256: 5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(code.byteCount == 32)
        #expect(HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: Self.question, using: Self.jefe))
        #expect(HMAC<SHA256>.isValidAuthenticationCode(Data(code), authenticating: Self.question, using: Self.jefe))
        #expect(!HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: Data("what do ya want for something?".utf8), using: Self.jefe))
        #expect(!HMAC<SHA256>.isValidAuthenticationCode(Data(code.dropLast()), authenticating: Self.question, using: Self.jefe))
        var streamed = HMAC<SHA256>(key: Self.jefe)
        streamed.update(data: Self.question.prefix(10))
        streamed.update(data: Self.question.dropFirst(10))
        #expect(streamed.finalize() == code)
    }

    @Test func symmetricKeysHaveTheirSize() {
        let key = SymmetricKey(size: .bits256)
        #expect(key.bitCount == 256 && key.withUnsafeBytes { $0.count } == 32)
        #expect(key != SymmetricKey(size: .bits256))
        #expect(SymmetricKey(size: .bits128).bitCount == 128 && SymmetricKeySize(bitCount: 512).bitCount == 512)
        #expect(SymmetricKey(data: Data("Jefe".utf8)) == Self.jefe && Self.jefe.bitCount == 32)
    }
}

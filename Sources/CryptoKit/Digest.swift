@_exported import Foundation

// Apple's CryptoKit, the part app code reaches for: the hash functions, their digests, HMAC and symmetric keys,
// computed here in Swift (no system library), with Apple's names and signatures. Ciphers (AES, ChaChaPoly), key
// agreement and signatures (P256 …, Curve25519) and HKDF are not declared: a file using one stops at "cannot find
// 'AES' in scope", which `lockstep build` reports as its first missing symbol (YourOwnCode.md, "CryptoKit").

/// A type that performs cryptographically secure hashing.
public protocol HashFunction: Sendable {
    /// The type of the digest the function returns.
    associatedtype Digest: CryptoKit.Digest
    /// The number of bytes the function processes in one block.
    static var blockByteCount: Int { get }
    /// A hash function with nothing hashed yet.
    init()
    /// Adds the bytes of `bufferPointer` to what is hashed.
    mutating func update(bufferPointer: UnsafeRawBufferPointer)
    /// The digest of everything added; the function itself is left as it is.
    func finalize() -> Digest
}

extension HashFunction {
    /// The number of bytes in the function's digest.
    public static var byteCount: Int { Digest.byteCount }

    /// The digest of `data`.
    public static func hash<D: DataProtocol>(data: D) -> Digest {
        var function = Self()
        function.update(data: data)
        return function.finalize()
    }

    /// Adds the bytes of `data` to what is hashed.
    public mutating func update<D: DataProtocol>(data: D) {
        for region in data.regions {
            region.withUnsafeBytes { update(bufferPointer: $0) }
        }
    }
}

/// The output of a hash function: its bytes as a sequence, compared in constant time.
public protocol Digest: ContiguousBytes, CustomStringConvertible, Hashable, Sequence, Sendable where Element == UInt8 {
    /// The number of bytes in the digest.
    static var byteCount: Int { get }
}

extension Digest {
    /// Whether the digest's bytes are `other`'s, compared without stopping at the first difference.
    public static func == <D: DataProtocol>(lhs: Self, rhs: D) -> Bool {
        lhs.withUnsafeBytes { constantTimeEqual(Array($0), Array(rhs)) }
    }
}

/// Whether two byte strings are equal, looking at every byte whatever the first difference, so that how long the
/// comparison takes does not tell an attacker how much of a guessed code was right (why CryptoKit compares digests
/// and authentication codes this way).
func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
}

/// Lower-case hexadecimal, two digits a byte, as CryptoKit's descriptions write bytes.
func hexString<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: text, as: UTF8.self)
}

/// What every digest type holds and does: its bytes, a sequence of them, equality in constant time, and a
/// description naming the function as Apple's does ("SHA256 digest: ba7816bf…").
public protocol _DigestBytes: Digest {
    /// The function's name in the description.
    static var _name: String { get }
    var _bytes: [UInt8] { get }
    init(_bytes: [UInt8])
}

extension _DigestBytes {
    public func makeIterator() -> IndexingIterator<[UInt8]> { _bytes.makeIterator() }
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { try _bytes.withUnsafeBytes(body) }
    public var description: String { "\(Self._name) digest: \(hexString(_bytes))" }
    public static func == (lhs: Self, rhs: Self) -> Bool { constantTimeEqual(lhs._bytes, rhs._bytes) }
    public func hash(into hasher: inout Hasher) { _bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
}

/// The output of SHA-256.
public struct SHA256Digest: _DigestBytes {
    public static let byteCount = 32
    public static let _name = "SHA256"
    public let _bytes: [UInt8]
    public init(_bytes: [UInt8]) { self._bytes = _bytes }
}

/// The output of SHA-384.
public struct SHA384Digest: _DigestBytes {
    public static let byteCount = 48
    public static let _name = "SHA384"
    public let _bytes: [UInt8]
    public init(_bytes: [UInt8]) { self._bytes = _bytes }
}

/// The output of SHA-512.
public struct SHA512Digest: _DigestBytes {
    public static let byteCount = 64
    public static let _name = "SHA512"
    public let _bytes: [UInt8]
    public init(_bytes: [UInt8]) { self._bytes = _bytes }
}

/// Hash functions kept for compatibility with older services, which are not secure for new uses.
public enum Insecure {
    /// The output of SHA-1.
    public struct SHA1Digest: _DigestBytes {
        public static let byteCount = 20
        public static let _name = "SHA1"
        public let _bytes: [UInt8]
        public init(_bytes: [UInt8]) { self._bytes = _bytes }
    }

    /// The output of MD5.
    public struct MD5Digest: _DigestBytes {
        public static let byteCount = 16
        public static let _name = "MD5"
        public let _bytes: [UInt8]
        public init(_bytes: [UInt8]) { self._bytes = _bytes }
    }
}

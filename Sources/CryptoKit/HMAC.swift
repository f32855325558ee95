// HMAC as RFC 2104 defines it (§2: a key longer than the function's block is hashed first, then padded with zeros
// to a block; the code is H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ message))), over any of CryptoKit's hash functions, with
// Apple's SymmetricKey holding the key.

/// The size of a symmetric key.
public struct SymmetricKeySize: Sendable {
    /// The number of bits in the key.
    public let bitCount: Int

    public init(bitCount: Int) {
        precondition(bitCount > 0 && bitCount % 8 == 0, "a symmetric key's bit count is a positive multiple of 8")
        self.bitCount = bitCount
    }

    public static var bits128: SymmetricKeySize { SymmetricKeySize(bitCount: 128) }
    public static var bits192: SymmetricKeySize { SymmetricKeySize(bitCount: 192) }
    public static var bits256: SymmetricKeySize { SymmetricKeySize(bitCount: 256) }
}

/// A symmetric cryptographic key: its bytes, equal in constant time.
public struct SymmetricKey: ContiguousBytes, Equatable, Sendable {
    let bytes: [UInt8]

    /// A key of the given bytes.
    public init<D: ContiguousBytes>(data: D) {
        bytes = data.withUnsafeBytes { Array($0) }
    }

    /// A random key of the given size, from the system's secure random number generator.
    public init(size: SymmetricKeySize) {
        var generator = SystemRandomNumberGenerator()
        bytes = (0..<size.bitCount / 8).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The number of bits in the key.
    public var bitCount: Int { bytes.count * 8 }

    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { try bytes.withUnsafeBytes(body) }

    public static func == (lhs: SymmetricKey, rhs: SymmetricKey) -> Bool { constantTimeEqual(lhs.bytes, rhs.bytes) }
}

/// A message authentication code: its bytes as a sequence, compared in constant time.
public protocol MessageAuthenticationCode: ContiguousBytes, CustomStringConvertible, Hashable, Sequence, Sendable where Element == UInt8 {
    /// The number of bytes in the code.
    var byteCount: Int { get }
}

extension MessageAuthenticationCode {
    /// Whether the code's bytes are `other`'s, compared without stopping at the first difference.
    public static func == <D: DataProtocol>(lhs: Self, rhs: D) -> Bool {
        lhs.withUnsafeBytes { constantTimeEqual(Array($0), Array(rhs)) }
    }
}

/// The code an HMAC computes: the outer hash's digest.
public struct HashedAuthenticationCode<H: HashFunction>: MessageAuthenticationCode {
    let bytes: [UInt8]

    public var byteCount: Int { bytes.count }
    public func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { try bytes.withUnsafeBytes(body) }
    /// "HMAC with SHA256: 5bdcc146…", as Apple's reads.
    public var description: String { "HMAC with \(H.self): \(hexString(bytes))" }
    public static func == (lhs: Self, rhs: Self) -> Bool { constantTimeEqual(lhs.bytes, rhs.bytes) }
    public func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
}

/// A hash-based message authentication code (RFC 2104) over the hash function `H`.
public struct HMAC<H: HashFunction>: Sendable {
    public typealias Key = SymmetricKey
    public typealias MAC = HashedAuthenticationCode<H>

    var inner: H
    let outerKey: [UInt8]

    /// An authentication code of nothing yet, keyed with `key`.
    public init(key: SymmetricKey) {
        var block = key.bytes.count > H.blockByteCount ? Array(H.hash(data: key.bytes)) : key.bytes
        block += [UInt8](repeating: 0, count: H.blockByteCount - block.count)
        inner = H()
        inner.update(data: block.map { $0 ^ 0x36 })
        outerKey = block.map { $0 ^ 0x5c }
    }

    /// Adds `data` to what is authenticated.
    public mutating func update<D: DataProtocol>(data: D) { inner.update(data: data) }

    /// The code of everything added.
    public func finalize() -> MAC {
        var outer = H()
        outer.update(data: outerKey)
        outer.update(data: Array(inner.finalize()))
        return MAC(bytes: Array(outer.finalize()))
    }

    /// The code of `data` under `key`.
    public static func authenticationCode<D: DataProtocol>(for data: D, using key: SymmetricKey) -> MAC {
        var hmac = HMAC(key: key)
        hmac.update(data: data)
        return hmac.finalize()
    }

    /// Whether `mac` is the code of `authenticatedData` under `key`.
    public static func isValidAuthenticationCode<D: DataProtocol>(_ mac: MAC, authenticating authenticatedData: D, using key: SymmetricKey) -> Bool {
        authenticationCode(for: authenticatedData, using: key) == mac
    }

    /// Whether the bytes of `authenticationCode` are the code of `authenticatedData` under `key`.
    public static func isValidAuthenticationCode<C: ContiguousBytes, D: DataProtocol>(
        _ authenticationCode: C, authenticating authenticatedData: D, using key: SymmetricKey
    ) -> Bool {
        let expected = Self.authenticationCode(for: authenticatedData, using: key)
        return authenticationCode.withUnsafeBytes { constantTimeEqual(Array($0), expected.bytes) }
    }
}

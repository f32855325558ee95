/// `embedded.mobileprovision`: a CMS SignedData (RFC 5652) whose encapsulated content is an XML property list with
/// the profile's `Entitlements` and `TeamIdentifier` (RULES.md `signing.profile`). Only the content is read; the
/// signature is not verified.
enum ProvisioningProfile {
    /// The property list inside the profile's DER, or nil when it is not a CMS SignedData Lockstep can read.
    static func content(_ der: [UInt8]) -> [UInt8]? {
        var reader = DER(der)
        // ContentInfo ::= SEQUENCE { contentType OID (signedData), content [0] EXPLICIT SignedData }
        guard let contentInfo = reader.element(tag: 0x30), contentInfo.end <= der.count else { return nil }
        var inner = DER(der, contentInfo.body)
        guard inner.element(tag: 0x06) != nil, let explicit = inner.element(tag: 0xA0) else { return nil }
        // SignedData ::= SEQUENCE { version, digestAlgorithms SET, encapContentInfo SEQUENCE, … }
        var wrapper = DER(der, explicit.body)
        guard let signedData = wrapper.element(tag: 0x30) else { return nil }
        var fields = DER(der, signedData.body)
        guard fields.element(tag: 0x02) != nil, fields.element(tag: 0x31) != nil, let encapsulated = fields.element(tag: 0x30) else { return nil }
        // EncapsulatedContentInfo ::= SEQUENCE { eContentType OID, eContent [0] EXPLICIT OCTET STRING }
        var encap = DER(der, encapsulated.body)
        guard encap.element(tag: 0x06) != nil, let eContent = encap.element(tag: 0xA0) else { return nil }
        var octets = DER(der, eContent.body)
        guard let string = octets.element(tag: 0x04) else { return nil }
        return Array(der[string.body])
    }

    /// A reader of DER elements (definite lengths only, as DER requires), every length checked against its parent.
    struct DER {
        let bytes: [UInt8]
        var position: Int
        let end: Int

        init(_ bytes: [UInt8], _ range: Range<Int>? = nil) {
            self.bytes = bytes
            position = range?.lowerBound ?? 0
            end = range?.upperBound ?? bytes.count
        }

        /// The next element if its tag is `tag`: where its body lies and where it ends.
        mutating func element(tag: UInt8) -> (body: Range<Int>, end: Int)? {
            guard position + 2 <= end, bytes[position] == tag else { return nil }
            var index = position + 1
            let first = Int(bytes[index])
            index += 1
            var length = first
            if first & 0x80 != 0 {
                let count = first & 0x7F
                // 0x80 is BER's indefinite length, which DER forbids; more than 4 length bytes is no real profile.
                guard count >= 1, count <= 4, index + count <= end else { return nil }
                length = bytes[index..<(index + count)].reduce(0) { $0 << 8 | Int($1) }
                index += count
            }
            guard length <= end - index else { return nil }
            position = index + length
            return (index..<(index + length), index + length)
        }
    }
}

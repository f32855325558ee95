/// `embedded.mobileprovision`: a CMS SignedData (RFC 5652) whose encapsulated content is an XML property list with
/// the profile's `Entitlements` and `TeamIdentifier` (rule `signing.profile`). Only the content is read; the
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
        if let string = octets.element(tag: 0x04) { return Array(der[string.body]) }
        // BER (`openssl cms -stream`, and real profiles Apple created in 2018): a constructed OCTET STRING, its
        // content the concatenation of the primitive strings inside it.
        guard let constructed = octets.element(tag: 0x24) else { return nil }
        var content: [UInt8] = []
        return DER.appendOctets(der, constructed.body, depth: 0, to: &content) ? content : nil
    }

    /// A reader of DER elements, every length checked against its parent; BER's indefinite length (0x80, ended by
    /// two zero bytes) is read too, as openssl and asn1crypto read it: `openssl cms -sign -stream` writes it.
    struct DER {
        let bytes: [UInt8]
        var position: Int
        let end: Int
        /// Constructed elements nest at most this deep (a real profile: a handful).
        static let maximumDepth = 64

        init(_ bytes: [UInt8], _ range: Range<Int>? = nil) {
            self.bytes = bytes
            position = range?.lowerBound ?? 0
            end = range?.upperBound ?? bytes.count
        }

        /// The next element if its tag is `tag`: where its body lies and where it ends.
        mutating func element(tag: UInt8) -> (body: Range<Int>, end: Int)? {
            guard position < end, bytes[position] == tag, let found = Self.parse(bytes, at: position, limit: end, depth: 0) else { return nil }
            position = found.end
            return (found.body, found.end)
        }

        /// The element at `start`, which must end by `limit`: its tag, body and end.
        static func parse(_ bytes: [UInt8], at start: Int, limit: Int, depth: Int) -> (tag: UInt8, body: Range<Int>, end: Int)? {
            guard depth < maximumDepth, start >= 0, start + 2 <= limit, limit <= bytes.count else { return nil }
            let tag = bytes[start]
            guard tag & 0x1F != 0x1F else { return nil }  // multi-byte tags: no profile uses them
            var index = start + 1
            let first = Int(bytes[index])
            index += 1
            if first == 0x80 {
                // Indefinite: only a constructed element; its elements run to the end-of-contents octets.
                guard tag & 0x20 != 0 else { return nil }
                var inner = index
                while true {
                    guard inner + 2 <= limit else { return nil }
                    if bytes[inner] == 0 && bytes[inner + 1] == 0 { return (tag, index..<inner, inner + 2) }
                    guard let element = parse(bytes, at: inner, limit: limit, depth: depth + 1) else { return nil }
                    inner = element.end
                }
            }
            var length = first
            if first & 0x80 != 0 {
                let count = first & 0x7F
                // More than 4 length bytes is no real profile.
                guard count >= 1, count <= 4, index + count <= limit else { return nil }
                length = bytes[index..<(index + count)].reduce(0) { $0 << 8 | Int($1) }
                index += count
            }
            guard length <= limit - index else { return nil }
            return (tag, index..<(index + length), index + length)
        }

        /// Appends the primitive OCTET STRINGs inside the constructed one whose body is `body`; false when it holds
        /// anything else.
        static func appendOctets(_ bytes: [UInt8], _ body: Range<Int>, depth: Int, to content: inout [UInt8]) -> Bool {
            var position = body.lowerBound
            while position < body.upperBound {
                guard let element = parse(bytes, at: position, limit: body.upperBound, depth: depth + 1) else { return false }
                switch element.tag {
                case 0x04: content += bytes[element.body]
                case 0x24: guard appendOctets(bytes, element.body, depth: depth + 1, to: &content) else { return false }
                default: return false
                }
                position = element.end
            }
            return true
        }
    }
}

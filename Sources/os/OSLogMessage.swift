import Foundation

/// Whether a value of a log message is shown: as on a device without a logging profile or a debugger, a private
/// value is written `<private>`, a hashed one `<mask.hash: '…'>`. `.auto` keeps strings and objects private and
/// numbers and booleans public.
public struct OSLogPrivacy: Equatable, Sendable {
    public enum Mask: Equatable, Sendable {
        case hash
        case none
    }

    enum Level: Equatable, Sendable { case auto, `public`, `private`, sensitive }

    let level: Level
    let mask: Mask

    public static let `public` = OSLogPrivacy(level: .public, mask: .none)
    public static let `private` = OSLogPrivacy(level: .private, mask: .none)
    public static let sensitive = OSLogPrivacy(level: .sensitive, mask: .none)
    public static let auto = OSLogPrivacy(level: .auto, mask: .none)
    public static func `private`(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(level: .private, mask: mask) }
    public static func sensitive(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(level: .sensitive, mask: mask) }
    public static func auto(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(level: .auto, mask: mask) }

    /// `text` as the line shows it; `dynamic` for a string or object (private under `.auto`).
    func apply(to text: String, dynamic: Bool) -> String {
        let hidden = level == .private || level == .sensitive || (level == .auto && dynamic)
        guard hidden else { return text }
        guard mask == .hash else { return "<private>" }
        // A stable digest, so equal values can be matched across lines without being shown (FNV-1a, 64 bits).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let bytes = withUnsafeBytes(of: hash.bigEndian) { Data($0) }
        return "<mask.hash: '\(bytes.base64EncodedString())'>"
    }
}

/// Column alignment of an interpolated value.
public struct OSLogStringAlignment: Sendable {
    let columns: Int
    let left: Bool
    public static var none: OSLogStringAlignment { OSLogStringAlignment(columns: 0, left: false) }
    public static func right(columns: @autoclosure () -> Int) -> OSLogStringAlignment { OSLogStringAlignment(columns: columns(), left: false) }
    public static func left(columns: @autoclosure () -> Int) -> OSLogStringAlignment { OSLogStringAlignment(columns: columns(), left: true) }

    func apply(_ text: String) -> String {
        let padding = String(repeating: " ", count: max(0, columns - text.count))
        return left ? text + padding : padding + text
    }
}

public typealias OSLogIntegerAlignment = OSLogStringAlignment
public typealias OSLogFloatAlignment = OSLogStringAlignment

/// How an interpolated integer is written.
public struct OSLogIntegerFormatting: Sendable {
    let radix: Int
    let explicitPositiveSign: Bool
    let prefix: Bool
    let uppercase: Bool
    let minDigits: Int

    public static var decimal: OSLogIntegerFormatting { decimal() }
    public static var hex: OSLogIntegerFormatting { hex() }
    public static var octal: OSLogIntegerFormatting { octal() }
    public static func decimal(explicitPositiveSign: Bool = false, minDigits: @autoclosure () -> Int = 0) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(radix: 10, explicitPositiveSign: explicitPositiveSign, prefix: false, uppercase: false, minDigits: minDigits())
    }
    public static func hex(explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false,
                           minDigits: @autoclosure () -> Int = 0) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(radix: 16, explicitPositiveSign: explicitPositiveSign, prefix: includePrefix, uppercase: uppercase, minDigits: minDigits())
    }
    public static func octal(explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false,
                             minDigits: @autoclosure () -> Int = 0) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(radix: 8, explicitPositiveSign: explicitPositiveSign, prefix: includePrefix, uppercase: uppercase, minDigits: minDigits())
    }

    func apply<T: BinaryInteger>(_ value: T) -> String {
        var digits = String(value.magnitude, radix: radix, uppercase: uppercase)
        if digits.count < minDigits { digits = String(repeating: "0", count: minDigits - digits.count) + digits }
        if prefix { digits = (radix == 16 ? "0x" : "0") + digits }
        if value < 0 { return "-" + digits }
        return explicitPositiveSign ? "+" + digits : digits
    }
}

/// How an interpolated floating-point number is written.
public struct OSLogFloatFormatting: Sendable {
    let conversion: String
    let precision: Int?
    let explicitPositiveSign: Bool

    public static var fixed: OSLogFloatFormatting { fixed() }
    public static var hex: OSLogFloatFormatting { hex() }
    public static var exponential: OSLogFloatFormatting { exponential() }
    public static var hybrid: OSLogFloatFormatting { hybrid() }
    public static func fixed(precision: @autoclosure () -> Int, explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(conversion: uppercase ? "F" : "f", precision: precision(), explicitPositiveSign: explicitPositiveSign)
    }
    public static func fixed(explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(conversion: uppercase ? "F" : "f", precision: nil, explicitPositiveSign: explicitPositiveSign)
    }
    public static func hex(explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(conversion: uppercase ? "A" : "a", precision: nil, explicitPositiveSign: explicitPositiveSign)
    }
    public static func exponential(precision: @autoclosure () -> Int, explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(conversion: uppercase ? "E" : "e", precision: precision(), explicitPositiveSign: explicitPositiveSign)
    }
    public static func exponential(explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(conversion: uppercase ? "E" : "e", precision: nil, explicitPositiveSign: explicitPositiveSign)
    }
    public static func hybrid(precision: @autoclosure () -> Int, explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(conversion: uppercase ? "G" : "g", precision: precision(), explicitPositiveSign: explicitPositiveSign)
    }
    public static func hybrid(explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(conversion: uppercase ? "G" : "g", precision: nil, explicitPositiveSign: explicitPositiveSign)
    }

    func apply(_ value: Double) -> String {
        String(format: "%\(explicitPositiveSign ? "+" : "")\(precision.map { ".\($0)" } ?? "")\(conversion)", value)
    }
}

/// How an interpolated boolean is written.
public enum OSLogBoolFormat: Sendable {
    case truth
    case answer
}

/// A log message: a string literal whose interpolations carry their privacy and format, as Apple's `OSLogMessage`.
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    let interpolation: OSLogInterpolation

    public init(stringInterpolation: OSLogInterpolation) { interpolation = stringInterpolation }
    public init(stringLiteral value: String) {
        var interpolation = OSLogInterpolation(literalCapacity: value.count, interpolationCount: 0)
        interpolation.appendLiteral(value)
        self.interpolation = interpolation
    }

    /// The text of the line, private values redacted. Values are read only now (their closures), as on a device.
    var rendered: String { interpolation.pieces.map { $0() }.joined() }
}

/// The interpolations `Logger` takes, with Apple's labels and defaults.
public struct OSLogInterpolation: StringInterpolationProtocol {
    var pieces: [() -> String] = []

    public init(literalCapacity: Int, interpolationCount: Int) {}

    public mutating func appendLiteral(_ literal: String) { pieces.append { literal } }

    public mutating func appendInterpolation(_ argumentString: @autoclosure @escaping () -> String,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        pieces.append { align.apply(privacy.apply(to: argumentString(), dynamic: true)) }
    }

    public mutating func appendInterpolation<T>(_ value: @autoclosure @escaping () -> T, align: OSLogStringAlignment = .none,
                                                privacy: OSLogPrivacy = .auto) where T: CustomStringConvertible {
        pieces.append { align.apply(privacy.apply(to: value().description, dynamic: true)) }
    }

    public mutating func appendInterpolation<T>(_ number: @autoclosure @escaping () -> T, format: OSLogIntegerFormatting = .decimal,
                                                align: OSLogIntegerAlignment = .none, privacy: OSLogPrivacy = .auto) where T: FixedWidthInteger {
        pieces.append { align.apply(privacy.apply(to: format.apply(number()), dynamic: false)) }
    }

    // Each integer type by name, as Apple's overlay has them: the generic `CustomStringConvertible` overload would
    // otherwise take an integer (and make it private).
    public mutating func appendInterpolation(_ number: @autoclosure @escaping () -> Int, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogIntegerAlignment = .none, privacy: OSLogPrivacy = .auto) {
        pieces.append { align.apply(privacy.apply(to: format.apply(number()), dynamic: false)) }
    }
    public mutating func appendInterpolation(_ number: @autoclosure @escaping () -> Int8, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogIntegerAlignment = .none, privacy: OSLogPrivacy = .auto) {
        pieces.append { align.apply(privacy.apply(to: format.apply(number()), dynamic: false)) }
    }
    public mutating func appendInterpolation(_ number: @autoclosure @escaping () -> Int16, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogIntegerAlignment = .none, privacy: OSLogPrivacy = .auto) {
        pieces.append { align.apply(privacy.apply(to: format.apply(number()), dynamic: false)) }
    }
    public mutating func appendInterpolation(_ number: @autoclosure @escaping () -> Int32, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogIntegerAlignment = .none, privacy: OSLogPrivacy = .auto) {
        pieces.append { align.apply(privacy.apply(to: format.apply(number()), dynamic: false)) }
    }
    public mutating func appendInterpolation(_ number: @autoclosure @escaping () -> Int64, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogIntegerAlignment = .none, privacy: OSLogPrivacy = .auto) {
        pieces.append { align.apply(privacy.apply(to: format.apply(number()), dynamic: false)) }
    }
    public mutating func appendInterpolation(_ number: @autoclosure @escaping () -> UInt, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogIntegerAlignment = .none, privacy: OSLogPrivacy = .auto) {
        pieces.append { align.apply(privacy.apply(to: format.apply(number()), dynamic: false)) }
    }
    public mutating func appendInterpolation(_ number: @autoclosure @escaping () -> UInt8, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogIntegerAlignment = .none, privacy: OSLogPrivacy = .auto) {
        pieces.append { align.apply(privacy.apply(to: format.apply(number()), dynamic: false)) }
    }
    public mutating func appendInterpolation(_ number: @autoclosure @escaping () -> UInt16, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogIntegerAlignment = .none, privacy: OSLogPrivacy = .auto) {
        pieces.append { align.apply(privacy.apply(to: format.apply(number()), dynamic: false)) }
    }
    public mutating func appendInterpolation(_ number: @autoclosure @escaping () -> UInt32, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogIntegerAlignment = .none, privacy: OSLogPrivacy = .auto) {
        pieces.append { align.apply(privacy.apply(to: format.apply(number()), dynamic: false)) }
    }
    public mutating func appendInterpolation(_ number: @autoclosure @escaping () -> UInt64, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogIntegerAlignment = .none, privacy: OSLogPrivacy = .auto) {
        pieces.append { align.apply(privacy.apply(to: format.apply(number()), dynamic: false)) }
    }

    public mutating func appendInterpolation(_ number: @autoclosure @escaping () -> Double, format: OSLogFloatFormatting = .fixed,
                                             align: OSLogFloatAlignment = .none, privacy: OSLogPrivacy = .auto) {
        pieces.append { align.apply(privacy.apply(to: format.apply(number()), dynamic: false)) }
    }

    public mutating func appendInterpolation(_ number: @autoclosure @escaping () -> Float, format: OSLogFloatFormatting = .fixed,
                                             align: OSLogFloatAlignment = .none, privacy: OSLogPrivacy = .auto) {
        pieces.append { align.apply(privacy.apply(to: format.apply(Double(number())), dynamic: false)) }
    }

    public mutating func appendInterpolation(_ number: @autoclosure @escaping () -> CGFloat, format: OSLogFloatFormatting = .fixed,
                                             align: OSLogFloatAlignment = .none, privacy: OSLogPrivacy = .auto) {
        pieces.append { align.apply(privacy.apply(to: format.apply(Double(number())), dynamic: false)) }
    }

    public mutating func appendInterpolation(_ boolean: @autoclosure @escaping () -> Bool, format: OSLogBoolFormat = .truth,
                                             privacy: OSLogPrivacy = .auto) {
        pieces.append {
            let value = boolean()
            let text = format == .answer ? (value ? "YES" : "NO") : (value ? "true" : "false")
            return privacy.apply(to: text, dynamic: false)
        }
    }

    public mutating func appendInterpolation(_ argumentObject: @autoclosure @escaping () -> NSObject, privacy: OSLogPrivacy = .auto) {
        pieces.append { privacy.apply(to: argumentObject().description, dynamic: true) }
    }

    public mutating func appendInterpolation(_ argumentObject: @autoclosure @escaping () -> NSObject?, privacy: OSLogPrivacy = .auto) {
        pieces.append { privacy.apply(to: argumentObject()?.description ?? "(null)", dynamic: true) }
    }

    public mutating func appendInterpolation(_ error: @autoclosure @escaping () -> any Error, privacy: OSLogPrivacy = .auto,
                                             attributes: String = "") {
        pieces.append { privacy.apply(to: String(describing: error()), dynamic: true) }
    }

    public mutating func appendInterpolation(_ value: @autoclosure @escaping () -> Any.Type, align: OSLogStringAlignment = .none,
                                             privacy: OSLogPrivacy = .auto) {
        pieces.append { align.apply(privacy.apply(to: String(describing: value()), dynamic: true)) }
    }
}

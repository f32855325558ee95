import Foundation

// Foundation's localized strings (absent from Foundation on Linux): `String(localized:)` and
// `String.LocalizationValue`, looked up in the simulated bundle's string catalogs as on a device.

extension String {
    /// A localizable text as Xcode extracts it (Foundation's `String.LocalizationValue`): the catalog key, with each
    /// interpolation as its format specifier (`"\(count) left"` is the key `%lld left`), and the values to put in.
    public struct LocalizationValue: ExpressibleByStringInterpolation, Equatable, Hashable, Sendable {
        /// The key a string catalog stores.
        public let key: String
        let arguments: [Argument]

        /// An interpolated value: what the format specifier takes.
        enum Argument: Hashable, Sendable {
            case integer(Int64), unsigned(UInt64), double(Double), text(String)

            var cVarArg: any CVarArg {
                switch self {
                case .integer(let value): return value
                case .unsigned(let value): return value
                case .double(let value): return value
                case .text(let value): return NSString(string: value)
                }
            }
        }

        public struct StringInterpolation: StringInterpolationProtocol {
            var key = ""
            var arguments: [Argument] = []

            public init(literalCapacity: Int, interpolationCount: Int) {}

            /// A literal `%` is `%%` in a format key.
            public mutating func appendLiteral(_ literal: String) { key += literal.replacingOccurrences(of: "%", with: "%%") }

            public mutating func appendInterpolation<Value: SignedInteger>(_ value: Value) { append("%lld", .integer(Int64(value))) }
            public mutating func appendInterpolation<Value: UnsignedInteger>(_ value: Value) { append("%llu", .unsigned(UInt64(value))) }
            public mutating func appendInterpolation(_ value: Double) { append("%lf", .double(value)) }
            public mutating func appendInterpolation(_ value: Float) { append("%f", .double(Double(value))) }
            public mutating func appendInterpolation(_ value: String) { append("%@", .text(value)) }
            public mutating func appendInterpolation<Value>(_ value: Value) { append("%@", .text("\(value)")) }
            /// `"\(n, specifier: "%02d")"`: the value under the team's own specifier, as SwiftUI's `Text` takes it.
            public mutating func appendInterpolation<Value: CVarArg>(_ value: Value, specifier: String) {
                switch value {
                case let integer as any BinaryInteger: append(specifier, .integer(Int64(integer)))
                case let double as Double: append(specifier, .double(double))
                case let float as Float: append(specifier, .double(Double(float)))
                default: append(specifier, .text("\(value)"))
                }
            }
            public mutating func appendInterpolation<Style: FormatStyle>(_ value: Style.FormatInput, format: Style) where Style.FormatOutput == String {
                append("%@", .text(format.format(value)))
            }

            private mutating func append(_ specifier: String, _ argument: Argument) {
                key += specifier
                arguments.append(argument)
            }
        }

        public init(stringLiteral value: String) {
            key = value
            arguments = []
        }

        public init(stringInterpolation: StringInterpolation) {
            key = stringInterpolation.key
            arguments = stringInterpolation.arguments
        }

        /// A text known only at run time, as its own key (Foundation's `LocalizationValue(_:)`).
        public init(_ value: String) { self.init(stringLiteral: value) }

        /// `format` (the catalog's text for the key, or the key) with the values put in.
        public func formatted(_ format: String) -> String {
            arguments.isEmpty ? format : String(format: format, arguments: arguments.map(\.cVarArg))
        }

        /// The text in `bundle`'s string catalog (`table`, else `Localizable`), with the values put in; the key's own
        /// text when no table has it, or `defaultValue`'s.
        public func localized(table: String?, bundle: Bundle?, defaultValue: LocalizationValue? = nil) -> String {
            let found = (bundle ?? .main).localizedString(forKey: key, value: "\u{0}", table: table)
            if found != "\u{0}" { return (defaultValue ?? self).formatted(found) }
            return defaultValue.map { $0.formatted($0.key) } ?? formatted(key)
        }
    }

    /// Foundation's `String(localized:table:bundle:locale:comment:)`: the key's text in the bundle's string catalog
    /// or `.strings` table (`Bundle.localizedString(forKey:value:table:)`), with the interpolated values put in; the
    /// text itself when no table has the key.
    public init(localized keyAndValue: LocalizationValue, table: String? = nil, bundle: Bundle? = nil, locale: Locale = .current,
                comment: StaticString? = nil) {
        self = keyAndValue.localized(table: table, bundle: bundle)
    }

    /// `String(localized: "key", defaultValue: "Text \(value)")`: the key's text, else the default value's.
    public init(localized key: StaticString, defaultValue: LocalizationValue, table: String? = nil, bundle: Bundle? = nil,
                locale: Locale = .current, comment: StaticString? = nil) {
        self = LocalizationValue(key.description).localized(table: table, bundle: bundle, defaultValue: defaultValue)
    }
}

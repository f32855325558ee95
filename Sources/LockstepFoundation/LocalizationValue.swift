extension String {
    /// Foundation's `String(localized:table:bundle:locale:comment:)`: the key's text in the bundle's string catalog
    /// or `.strings` table (`Bundle.localizedString(forKey:value:table:)`), else the key, with the interpolated
    /// values formatted into it.
    public init(localized keyAndValue: LocalizationValue, defaultValue: LocalizationValue? = nil, table: String? = nil,
                bundle: Bundle? = nil, locale: Locale = .current, comment: StaticString? = nil) {
        let format = (bundle ?? .main).localizedString(forKey: keyAndValue.key, value: defaultValue?.key, table: table)
        self = keyAndValue.arguments.isEmpty ? format : String(format: format, locale: locale, arguments: keyAndValue.arguments)
    }

    /// A string to localize, as Foundation declares it: the key is the literal with each interpolation replaced by
    /// its format specifier (`"Order #\(n)"` is looked up as `Order #%lld`, as Xcode's string catalogs store it),
    /// and the interpolated values are formatted into the text found.
    public struct LocalizationValue: Equatable, ExpressibleByStringInterpolation, @unchecked Sendable {
        // @unchecked: the arguments are values captured at interpolation, never mutated after.
        public let key: String
        let arguments: [CVarArg]

        public init(_ value: String) {
            // A literal with a % in it is looked up as written, and formatted with no arguments (%% stays %%).
            key = value
            arguments = []
        }

        public init(stringLiteral value: String) { self.init(value) }

        public init(stringInterpolation: StringInterpolation) {
            key = stringInterpolation.key
            arguments = stringInterpolation.arguments
        }

        public static func == (a: LocalizationValue, b: LocalizationValue) -> Bool {
            a.key == b.key && a.arguments.map { "\($0)" } == b.arguments.map { "\($0)" }
        }

        public struct StringInterpolation: StringInterpolationProtocol {
            var key = ""
            var arguments: [CVarArg] = []

            public init(literalCapacity: Int, interpolationCount: Int) {}

            public mutating func appendLiteral(_ literal: String) {
                key += literal.replacingOccurrences(of: "%", with: "%%")
            }

            public mutating func appendInterpolation(_ string: String) { append(string, "%@") }
            public mutating func appendInterpolation<T: BinaryInteger & CVarArg>(_ value: T) { append(Int64(value), "%lld") }
            public mutating func appendInterpolation(_ value: Double) { append(value, "%lf") }
            public mutating func appendInterpolation(_ value: Float) { append(Double(value), "%f") }
            public mutating func appendInterpolation<T: CVarArg>(_ value: T, specifier: String) { append(value, specifier) }
            public mutating func appendInterpolation<T: CustomStringConvertible>(_ value: T) { append(value.description, "%@") }
            public mutating func appendInterpolation<F: FormatStyle>(_ value: F.FormatInput, format: F) where F.FormatOutput == String {
                append(format.format(value), "%@")
            }

            private mutating func append(_ value: CVarArg, _ specifier: String) {
                key += specifier
                arguments.append(value)
            }
        }
    }
}

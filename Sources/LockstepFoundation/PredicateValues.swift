import Foundation

/// How `NSPredicate` reads and compares values, as Foundation does for the subset it evaluates.
enum PredicateValues {
    /// A string comparison's `[c]` and `[d]`.
    struct Options {
        var caseInsensitive = false
        var diacriticInsensitive = false

        var compareOptions: String.CompareOptions {
            var options: String.CompareOptions = []
            if caseInsensitive { options.insert(.caseInsensitive) }
            if diacriticInsensitive { options.insert(.diacriticInsensitive) }
            return options
        }
    }

    /// `key` of `value`: a dictionary's entry, else a Swift value's stored property of that name (Linux has no
    /// key-value coding), looking through optionals; nil when there is none.
    static func member(_ key: String, of value: Any?) -> Any? {
        guard let value = unwrapped(value) else { return nil }
        if let dictionary = value as? [String: Any] { return dictionary[key] }
        if let dictionary = value as? [AnyHashable: Any] { return dictionary[key] }
        return Mirror(reflecting: value).children.first { $0.label == key || $0.label == "_" + key }.map { $0.value }
    }

    /// Applies `op` as Foundation's predicate operators do.
    static func compare(_ left: Any?, _ op: String, _ right: Any?, _ options: Options) -> Bool {
        let left = unwrapped(left), right = unwrapped(right)
        switch op {
        case "==", "=": return equal(left, right, options)
        case "!=", "<>": return !equal(left, right, options)
        case "<", "<=", "=<", ">", ">=", "=>":
            guard let order = order(left, right, options) else { return false }
            switch op {
            case "<": return order == .orderedAscending
            case ">": return order == .orderedDescending
            case "<=", "=<": return order != .orderedDescending
            default: return order != .orderedAscending
            }
        case "CONTAINS":
            if let list = left as? [Any?] { return list.contains { equal(unwrapped($0), right, options) } }
            guard let text = left as? String, let part = right as? String else { return false }
            return text.range(of: part, options: options.compareOptions) != nil
        case "BEGINSWITH", "ENDSWITH":
            guard let text = left as? String, let part = right as? String else { return false }
            var compare = options.compareOptions
            compare.insert(op == "BEGINSWITH" ? .anchored : [.anchored, .backwards])
            return part.isEmpty || text.range(of: part, options: compare) != nil
        case "LIKE":
            guard let text = left as? String, let pattern = right as? String else { return false }
            let regex = "^" + NSRegularExpression.escapedPattern(for: pattern)
                .replacingOccurrences(of: "\\*", with: ".*").replacingOccurrences(of: "\\?", with: ".") + "$"
            return matches(text, regex, options)
        case "MATCHES":
            guard let text = left as? String, let pattern = right as? String else { return false }
            return matches(text, "^(?:" + pattern + ")$", options)
        case "IN":
            if let list = right as? [Any?] { return list.contains { equal(left, unwrapped($0), options) } }
            if let list = right as? [Any] { return list.contains { equal(left, unwrapped($0), options) } }
            guard let part = left as? String, let text = right as? String else { return false }
            return text.range(of: part, options: options.compareOptions) != nil
        default:
            return false
        }
    }

    private static func matches(_ text: String, _ pattern: String, _ options: Options) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: pattern, options: options.caseInsensitive ? [.caseInsensitive] : []) else {
            return false
        }
        let subject = options.diacriticInsensitive ? text.folding(options: .diacriticInsensitive, locale: nil) : text
        return expression.firstMatch(in: subject, range: NSRange(subject.startIndex..., in: subject)) != nil
    }

    private static func equal(_ left: Any?, _ right: Any?, _ options: Options) -> Bool {
        switch (left, right) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        default: return order(left, right, options) == .orderedSame
        }
    }

    /// Numbers with numbers, strings with strings (with `[c]`/`[d]`), dates with dates; nil for any other pair.
    static func order(_ left: Any?, _ right: Any?, _ options: Options) -> ComparisonResult? {
        if let a = number(left), let b = number(right) { return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame }
        if let a = left as? String, let b = right as? String { return a.compare(b, options: options.compareOptions) }
        if let a = left as? Date, let b = right as? Date { return a.compare(b) }
        if let a = left, let b = right, let x = a as? AnyHashable, let y = b as? AnyHashable, x == y { return .orderedSame }
        return nil
    }

    private static func number(_ value: Any?) -> Double? {
        switch value {
        case let value as Bool: return value ? 1 : 0
        case let value as Int: return Double(value)
        case let value as Double: return value
        case let value as Float: return Double(value)
        case let value as Int64: return Double(value)
        case let value as Int32: return Double(value)
        case let value as UInt: return Double(value)
        case let value as NSNumber: return value.doubleValue
        default: return nil
        }
    }

    /// The value inside an optional, or nil.
    static func unwrapped(_ value: Any?) -> Any? {
        guard let value else { return nil }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.flatMap { unwrapped($0.value) }
    }
}

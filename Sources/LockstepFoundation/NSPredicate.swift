import Foundation

/// Foundation's `NSPredicate` with its format strings, which Foundation on Linux refuses ("Predicate strings and
/// key-value coding are not supported"): the subset extension code filters and validates with, evaluated as on a
/// device. The Linux shim names it (`typealias NSPredicate = LockstepFoundation.NSPredicate`).
///
/// The subset: comparisons `==` `=` `!=` `<>` `<` `<=` `>` `>=`, `CONTAINS`, `BEGINSWITH`, `ENDSWITH`, `LIKE` (`*` and
/// `?`), `MATCHES` (a regular expression over the whole string) and `IN`, each string comparison with `[c]`, `[d]` or
/// `[cd]`; `AND`/`&&`, `OR`/`||`, `NOT`/`!`, parentheses, `TRUEPREDICATE`, `FALSEPREDICATE`; operands `SELF`, a key path
/// (`name`, `owner.name`), `%@`, `%K` (a key path given as an argument), `%d` `%i` `%ld` `%lld` `%f` `%lf`, quoted
/// strings, numbers, `TRUE`/`YES`, `FALSE`/`NO`, `NIL`/`NULL` and `{…}` lists. A key path is read from a dictionary
/// (`[String: Any]`), or from a Swift value's stored property of that name (Linux has no key-value coding). Not there:
/// aggregates (`ANY`, `ALL`, `@count`, `@sum` …), `BETWEEN`, `SUBQUERY`, functions and `$variables`. A format outside
/// the subset stops the process with a sentence, as iOS raises `NSInvalidArgumentException` for one it cannot parse.
open class NSPredicate: NSObject, @unchecked Sendable {  // @unchecked: immutable after init.
    private let test: (Any?) -> Bool
    /// The format the predicate was made from (`"name == 'Walk'"` with its arguments put in, as Apple prints it).
    public let predicateFormat: String

    public init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        var parser = PredicateParser(format: predicateFormat, arguments: arguments ?? [])
        do {
            test = try parser.parse()
        } catch {
            preconditionFailure("Unable to parse the format string \"\(predicateFormat)\": \(error). Lockstep evaluates the subset of predicate formats its reference lists.")
        }
        self.predicateFormat = predicateFormat
        super.init()
    }

    public convenience init(format predicateFormat: String, _ arguments: CVarArg...) {
        self.init(format: predicateFormat, argumentArray: arguments)
    }

    public init(value: Bool) {
        test = { _ in value }
        predicateFormat = value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        super.init()
    }

    public init(block: @escaping (Any?, [String: Any]?) -> Bool) {
        test = { block($0, nil) }
        predicateFormat = "BLOCKPREDICATE"
        super.init()
    }

    open func evaluate(with object: Any?) -> Bool { test(object) }

    open func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool { test(object) }

    open override var description: String { predicateFormat }
}

extension Array {
    /// Foundation's `filtered(using:)`: the elements the predicate accepts.
    public func filtered(using predicate: NSPredicate) -> [Element] { filter { predicate.evaluate(with: $0) } }
}

import LockstepFoundation

extension Text {
    /// The simulated bundle's text for a key, its values put in; nil when no table has the key (outside a simulated
    /// process too, where Foundation's bundle has no tables).
    static func catalogText(_ value: String.LocalizationValue, table: String?) -> String? {
        let missing = "\u{0}"
        let found = LockstepFoundation.Bundle.main.localizedString(forKey: value.key, value: missing, table: table)
        return found == missing ? nil : value.formatted(found)
    }
}

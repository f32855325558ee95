import AppIntents
import LockstepFoundation
import Testing

/// `String(localized:)` looks an interpolated string up by its format key, as Xcode's string catalogs store it.
@Suite struct LocalizationValueTests {
    @Test func theKeyHasAFormatSpecifierForEachInterpolation() {
        let number = 7
        let value: String.LocalizationValue = "#\(12)\(number, specifier: "%02d") at 100%"
        #expect(value.key == "#%lld%02d at 100%%")
        #expect(String(localized: "#\(12)\(number, specifier: "%02d") of \("Order")") == "#1207 of Order")
        #expect(String(localized: "plain 100%") == "plain 100%")
    }
}

import Intents
@testable import os
import Testing

/// Logging as Apple's `os` renders it on a device without a logging profile: private values redacted, public ones
/// shown, formats applied; os_log's C formats with their privacy tags. (Lines reaching stderr with subsystem,
/// category and level across a process boundary: LaunchKitTests' PlainExecutableTests.)
@Suite("os: Logger and os_log messages")
struct LoggingTests {
    @Test func privacyAndFormats() {
        let name = "Walk", count = 3, ratio = 0.5
        let message: OSLogMessage = "\(name) \(name, privacy: .public) \(count) \(count, privacy: .private) \(ratio, format: .fixed(precision: 1)) \(255, format: .hex(includePrefix: true)) [\(name, align: .right(columns: 6), privacy: .public)] \(true)"
        #expect(message.rendered == "<private> Walk 3 <private> 0.5 0xff [  Walk] true")
        let hashed: OSLogMessage = "\(name, privacy: .private(mask: .hash))"
        #expect(hashed.rendered.hasPrefix("<mask.hash: '") && hashed.rendered == ("\(name, privacy: .private(mask: .hash))" as OSLogMessage).rendered)
        struct Failure: Error {}
        #expect(("\(Failure() as any Error, privacy: .public)" as OSLogMessage).rendered == "Failure()")
        #expect(CFormat.render("%{public}@ %@ %d %.2f %{private}d %%", ["Walk", "Walk", 7, 2.5, 9]) == "Walk <private> 7 2.50 <private> %")
        #expect(CFormat.render("%{public}s and %{BOOL}d", ["x", 1]) == "x and YES")
        #expect(OSLog.disabled.isEnabled(type: .error) == false && OSLog.default.isEnabled(type: .debug))
    }
}

/// SiriKit's base classes, for the class Xcode generates from an `.intentdefinition` (its `@objc` lines removed).
@Suite("Intents: a generated custom intent's base classes")
struct SiriKitIntentsTests {
    final class Habit: INObject, @unchecked Sendable {}
    final class ConfigurationIntent: INIntent, @unchecked Sendable {
        var habit: Habit?
    }
    final class ConfigurationIntentResponse: INIntentResponse, @unchecked Sendable {
        var code = INIntentResponseCode.unspecified
        convenience init(code: INIntentResponseCode, userActivity: NSUserActivity?) {
            self.init()
            self.code = code
            self.userActivity = userActivity
        }
    }

    @Test func generatedClassesWork() {
        let intent = ConfigurationIntent()
        intent.habit = Habit(identifier: "walk", display: "Walk")
        #expect(intent.habit?.identifier == "walk" && "\(intent.habit!)" == "Walk")
        #expect(Habit(identifier: "walk", display: "Walk") == Habit(identifier: "walk", display: "Walk"))
        let response = ConfigurationIntentResponse(code: .success, userActivity: NSUserActivity(activityType: "walk"))
        #expect(response.code == .success && response.userActivity?.activityType == "walk")
        let resolved = INObjectResolutionResult.success(with: intent.habit!)
        #expect(resolved.outcome == .success && INStringResolutionResult.needsValue().outcome == .needsValue)
    }
}

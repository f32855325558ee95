import Foundation
import LockstepSystem
import LockstepTestSupport
import Testing
@testable import BuildKit

/// Xcode's intent classes, as `lockstep build` generates them from a target's `.intentdefinition` (the Tally
/// fixture's widget has one of each kind: text, a number, a flag, an enum, a custom type, a list, a decimal).
@Suite struct IntentClassesTests {
    static let fixture = ProjectBuildTests.fixture.appendingPathComponent("Widget/TallyGoal.intentdefinition").path

    @Test func theIntentItsHandlingProtocolAndResponseAreDeclaredAsXcodeDeclaresThem() throws {
        let source = try #require(try IntentClasses.source([Self.fixture]))
        // The intent: each parameter of its Swift type, settable by name; the file's defaults for a widget instance.
        #expect(source.contains("public class ChooseGoalIntent: INIntent, @unchecked Sendable {"), "\(source)")
        for property in ["@IntentManaged public var label: String?", "@IntentManaged public var goal: NSNumber?",
                         "@IntentManaged public var showTotal: NSNumber?", "@IntentManaged public var style: CounterStyle",
                         "@IntentManaged public var counter: Counter?", "@IntentManaged public var tags: [String]?",
                         "@IntentManaged public var weight: NSNumber?"] {
            #expect(source.contains("    " + property + "\n"), "\(property): \(source)")
        }
        #expect(source.contains(#"public override class var definitionDefaults: [String: String] { ["label": "Cups", "goal": "8", "showTotal": "true", "style": "bold"] }"#), "\(source)")
        // The handling protocol: resolve… only where the file asks for resolution, provide… where it enumerates
        // options (with a search term where it searches), confirm and handle; each with a default.
        #expect(source.contains("public protocol ChooseGoalIntentHandling: NSObjectProtocol {"))
        #expect(source.contains("    func resolveStyle(for intent: ChooseGoalIntent, with completion: @escaping (CounterStyleResolutionResult) -> Swift.Void)\n"))
        #expect(source.contains("    func resolveCounter(for intent: ChooseGoalIntent) async -> CounterResolutionResult\n"))
        #expect(!source.contains("func resolveLabel"))
        #expect(source.contains("    func provideCounterOptionsCollection(for intent: ChooseGoalIntent, with completion: @escaping (INObjectCollection<Counter>?, Error?) -> Swift.Void)\n"))
        #expect(source.contains("    func provideTagsOptionsCollection(for intent: ChooseGoalIntent, searchTerm: String?) async throws -> INObjectCollection<NSString>\n"))
        #expect(source.contains("    func handle(intent: ChooseGoalIntent, completion: @escaping (ChooseGoalIntentResponse) -> Swift.Void)\n"))
        #expect(source.contains("    public func confirm(intent: ChooseGoalIntent) async -> ChooseGoalIntentResponse { ChooseGoalIntentResponse(code: .ready, userActivity: nil) }"))
        // The response: the standard codes, a custom one from 100, its parameter, and `.failure(failureReason:)`
        // because the failure dialog names it.
        #expect(source.contains("    case `failureRequiringAppLaunch` = 6\n    case `failureNoCounter` = 100\n"), "\(source)")
        #expect(source.contains("    public var failureReason: String?\n"))
        #expect(source.contains("    public static func failure(failureReason: String) -> ChooseGoalIntentResponse {"))
        #expect(!source.contains("func failureNoCounter("))
        // The custom type with its own property, the enum with `unknown` = 0, and their resolution results.
        #expect(source.contains("public class Counter: INObject, @unchecked Sendable {\n    public var unit: String?\n    public var step: NSNumber?\n}"), "\(source)")
        #expect(source.contains("public class CounterResolutionResult: INObjectResolutionResult"))
        #expect(source.contains("public enum CounterStyle: Int, Sendable {\n    case `unknown` = 0\n    case `compact` = 1\n    case `bold` = 2\n}"), "\(source)")
        #expect(source.contains("public class func success(with resolvedValue: CounterStyle) -> Self"))
        #expect(try IntentClasses.source([]) == nil)
    }

    @Test func aFileXcodeCouldNotGenerateFromIsOneSentenceNamingIt() throws {
        let folder = TestSupport.temporaryDirectory("intent-definitions")
        defer { TestSupport.cleanUp(folder) }
        func refusal(_ text: String) throws -> String? {
            let path = folder.appendingPathComponent("Bad.intentdefinition").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            do {
                _ = try IntentClasses.source([path])
                return nil
            } catch let error as BuildError {
                #expect(error.code == .invalidIntentDefinition && error.exitStatus == .invalidInput)
                #expect(error.description.hasPrefix("The intent definition '\(path)' cannot be read: "), "\(error)")
                return error.description
            }
        }
        func plist(_ body: String) -> String { "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict>\(body)</dict></plist>\n" }
        #expect(try refusal("<?xml version=\"1.0\"?>\n<plist><dict><key>INIntents</key>")?.contains("not an XML, binary or OpenStep property list") == true)
        #expect(try refusal(plist("<key>CFBundleName</key><string>X</string>"))?.contains("neither INIntentDefinitionModelVersion nor INIntents") == true)
        #expect(try refusal(plist("<key>INIntents</key><string>X</string>"))?.contains("its INIntents is not a list of dictionaries") == true)
        let badName = try refusal(plist("<key>INIntents</key><array><dict><key>INIntentName</key><string>Choose Goal</string></dict></array>"))
        #expect(badName?.contains("an intent of INIntents has INIntentName 'Choose Goal', which is not a Swift name.") == true, "\(badName ?? "")")
        let badType = try refusal(plist("<key>INIntents</key><array><dict><key>INIntentName</key><string>Pick</string><key>INIntentParameters</key><array><dict><key>INIntentParameterName</key><string>item</string><key>INIntentParameterType</key><string>Object</string><key>INIntentParameterObjectType</key><string>Bird-Feeder</string></dict></array></dict></array>"))
        #expect(badType?.contains("a parameter of intent Pick 'item' has the object type 'Bird-Feeder', which is not a Swift name.") == true, "\(badType ?? "")")
        // A system intent customized in the file keeps Apple's class: nothing is generated for it.
        let system = try #require(try IntentClasses.source([{
            let path = folder.appendingPathComponent("System.intentdefinition").path
            try plist("<key>INIntentDefinitionModelVersion</key><string>1.2</string><key>INIntents</key><array><dict><key>INIntentName</key><string>SendMessage</string><key>INIntentType</key><string>System</string></dict></array>")
                .write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }()]))
        #expect(!system.contains("class SendMessageIntent"))
    }
}

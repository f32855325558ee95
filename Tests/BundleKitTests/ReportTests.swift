import BundleKit
import Foundation
import Testing

/// Every report format against a golden file in `Golden/` (compared byte for byte).
@Suite struct ReportTests {
    static let result: CheckResult = {
        let app = RulesTests.app(build: "289")
        let widget = RulesTests.widget(build: "1", point: "com.example.custom")
        var odd = RulesTests.watch(companion: nil)
        // Characters every format must escape: a comma and a colon in the path, % and a newline in a message.
        odd.source = SourceLocation(file: "Build, 100%: W.app/Info.plist")
        let set = AppBundleSet(app: app, embedded: [widget, odd], origin: "test")
        var result = CheckResult(sets: [set], findings: Rules.check(set))
        result.findings.append(Finding(rule: "settings.unresolved", severity: .warning, bundle: "X.app/Watch/W.app",
                                       path: "Config/Watch.xcconfig", message: "100% of $(TEAM) <unset>\nsecond line & more"))
        return result
    }()

    static func golden(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/\(name)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test(arguments: [(ReportFormat.text, "report.txt"), (.json, "report.json"), (.github, "report.github.txt"), (.junit, "report.junit.xml")])
    func matchesGolden(format: ReportFormat, file: String) throws {
        #expect(Report.render(Self.result, as: format) == (try Self.golden(file)))
    }

    @Test func jsonIsValidAndCountsSeverities() throws {
        let data = Data(Report.render(Self.result, as: .json).utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Int])
        #expect(summary == ["errors": 2, "warnings": 2])
        let findings = try #require(object["findings"] as? [[String: String]])
        #expect(findings.map { $0["rule"] } == Self.result.findings.map(\.rule.rawValue))
    }

    @Test func strictRaisesWarningsAndDecidesTheStatus() {
        let warningsOnly = CheckResult(findings: [Finding(rule: "extension.point", severity: .warning, bundle: "b", path: "p", message: "m")])
        #expect(warningsOnly.exitStatus == .success)
        #expect(warningsOnly.strict().exitStatus == .failure)
        #expect(warningsOnly.strict().findings.map(\.severity) == [.error])
        let notesOnly = CheckResult(findings: [Finding(rule: "group.shared", severity: .note, bundle: "b", path: "p", message: "m")])
        #expect(notesOnly.strict().exitStatus == .success)
    }
}

import BundleKit
import CheckKit
import Foundation
import Testing
import XcodeKit

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
        // Positions as readers attach them: a line and column, a line alone, none (the extension point).
        result.findings[0] = result.findings[0].with(line: 14, column: 3)
        result.findings[2] = result.findings[2].with(line: 9)
        result.findings.append(Finding(rule: "settings.unresolved", severity: .warning, bundle: "X.app/Watch/W.app",
                                       path: "Config/Watch.xcconfig", message: "100% of $(TEAM) <unset>\nsecond line & more",
                                       line: 12, column: 5))
        return result
    }()

    static func golden(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/\(name)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test(arguments: [(ReportFormat.text, "report.txt"), (.json, "report.json"), (.github, "report.github.txt"), (.junit, "report.junit.xml")])
    func matchesGolden(format: ReportFormat, file: String) throws {
        let rendered = Report.render(Self.result, as: format)
        // LOCKSTEP_UPDATE_GOLDEN=1 rewrites the files (then review `git diff` of Golden/ before committing).
        if ProcessInfo.processInfo.environment["LOCKSTEP_UPDATE_GOLDEN"] == "1" {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/\(file)")
            try rendered.write(to: url, atomically: true, encoding: .utf8)
        }
        #expect(rendered == (try Self.golden(file)))
    }

    /// A finding's line (and column) in every format: where compilers, GitHub, SARIF and JUnit readers look.
    @Test func everyFormatShowsTheLine() throws {
        let text = Report.render(Self.result, as: .text)
        #expect(text.contains("\nConfig/Watch.xcconfig:12:5: warning: 100% of"), "\(text)")
        #expect(text.hasPrefix("X.app/PlugIns/Y.appex/Info.plist:14:3: error: "), "\(text)")
        #expect(text.contains("\nBuild, 100%: W.app/Info.plist:9: error: "), "\(text)")
        #expect(text.contains("\nX.app/PlugIns/Y.appex/Info.plist: warning: The extension point"), "\(text)")

        let json = try #require(try JSONSerialization.jsonObject(with: Data(Report.render(Self.result, as: .json).utf8)) as? [String: Any])
        let findings = try #require(json["findings"] as? [[String: Any]])
        #expect(findings.map { $0["line"] as? Int } == [14, nil, 9, 12])
        #expect(findings.map { $0["column"] as? Int } == [3, nil, nil, 5])
        #expect(json["fingerprintVersion"] as? Int == 2)

        let github = Report.render(Self.result, as: .github).split(separator: "\n")
        #expect(github[0].hasPrefix("::error file=X.app/PlugIns/Y.appex/Info.plist,line=14,col=3,title="))
        #expect(github[1].hasPrefix("::warning file=X.app/PlugIns/Y.appex/Info.plist,title="))
        #expect(github[2].hasPrefix("::error file=Build%2C 100%25%3A W.app/Info.plist,line=9,title="))

        let junit = Report.render(Self.result, as: .junit)
        #expect(junit.contains("<testcase classname=\"X.app/PlugIns/Y.appex\" name=\"version.build-mismatch\" file=\"X.app/PlugIns/Y.appex/Info.plist\" line=\"14\">"), "\(junit)")
        #expect(junit.contains(">X.app/PlugIns/Y.appex/Info.plist:14:3: The CFBundleVersion"), "\(junit)")

        let sarif = try #require(try JSONSerialization.jsonObject(with: Data(Report.render(Self.result, as: .sarif).utf8)) as? [String: Any])
        let results = try #require((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let regions = results.map { (($0["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"] as? [String: Int] }
        #expect(regions == [["startLine": 14, "startColumn": 3], nil, ["startLine": 9], ["startLine": 12, "startColumn": 5]])
    }

    /// The SARIF log's shape, checked in Swift (the schema itself is checked by CheckOutputTests when python3 has
    /// jsonschema): version, one run, the driver's rules, and for each result a rule id and index that agree, a
    /// level, a message and a URI reference relative to %SRCROOT% without spaces or a scheme.
    @Test func sarifIsStructurallySound() throws {
        let log = try #require(try JSONSerialization.jsonObject(with: Data(Report.render(Self.result, as: .sarif).utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let rules = try #require(((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        #expect(results.count == Self.result.findings.count)
        for result in results {
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == result["ruleId"] as? String)
            #expect(["error", "warning", "note"].contains(result["level"] as? String))
            #expect((result["message"] as? [String: String])?["text"]?.isEmpty == false)
            let artifact = try #require(((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: String])
            let uri = try #require(artifact["uri"])
            #expect(!uri.contains(" ") && !uri.contains(":") && artifact["uriBaseId"] == "%SRCROOT%", "\(uri)")
        }
        #expect(!Report.render(Self.result, as: .sarif).contains(".md"))
    }

    @Test func jsonIsValidAndCountsSeverities() throws {
        let data = Data(Report.render(Self.result, as: .json).utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Int])
        #expect(summary == ["errors": 2, "warnings": 2, "bundles": 3, "configurations": 0])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.map { $0["rule"] as? String } == Self.result.findings.map(\.rule.rawValue))
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

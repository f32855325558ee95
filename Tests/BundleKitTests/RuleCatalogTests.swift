@testable import BundleKit
@testable import CheckKit
import Foundation
import LockstepTestSupport
import Testing

/// The rule catalogue (`lockstep rules`) and the SARIF report built from it.
@Suite struct RuleCatalogTests {
    /// Every rule id a finding of `check` can carry is described, so `lockstep rules ID` and SARIF know it; and
    /// product code names rules by their `RuleID` constants, never by a string it could misspell.
    @Test func everyRuleCheckReportsIsInTheCatalogue() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/CheckKit").standardized
        let declared = try String(contentsOfFile: sources.path + "/RuleID.swift", encoding: .utf8)
        let constant = try NSRegularExpression(pattern: #"public static let \w+: RuleID = "([a-z-]+\.[a-z-]+)""#)
        var ids = Set(constant.matches(in: declared, range: NSRange(declared.startIndex..., in: declared)).map {
            String(declared[Range($0.range(at: 1), in: declared)!])
        })
        #expect(ids.count > 30)
        ids.remove("runtime.version-parity")  // the simulated processes' rule, not check's
        ids.remove("group.id-format")  // the platforms of group.shared's `group.` prefix finding
        let described = Set(RuleCatalog.rules.map(\.id.rawValue))
        #expect(ids.subtracting(described).isEmpty, "not described: \(ids.subtracting(described).sorted())")
        #expect(described.subtracting(ids).isEmpty, "described but not declared: \(described.subtracting(ids).sorted())")
        // The readers and the checks: every module a finding can come from.
        let modules = ["BundleKit", "XcodeKit", "XcodeGenKit", "CheckKit"].map { sources.deletingLastPathComponent().appendingPathComponent($0).path }
        let files = modules.flatMap { module in
            (FileManager.default.enumerator(atPath: module)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []).map { module + "/" + $0 }
        }
        #expect(files.count > 30)
        let literal = try NSRegularExpression(pattern: #"(?:rule: |add\(|rule\()"[a-z-]+\.[a-z-]+""#)
        for file in files where !file.hasSuffix("/RuleID.swift") {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(literal.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil, "\(file) names a rule by a string")
        }
        #expect(RuleCatalog.rules.allSatisfy { !$0.summary.isEmpty && !$0.appleText.isEmpty && !$0.fix.isEmpty && !$0.platforms.isEmpty })
        #expect(RuleCatalog.rule(.bundleIDSingleComponent)?.platforms.contains(.macOS) == false)
    }

    @Test func rulesCommandListsExplainsAndRefuses() throws {
        let list = try run("lockstep", ["rules"])
        #expect(list.status == 0)
        #expect(list.stdout.split(separator: "\n").count == RuleCatalog.rules.count)
        let one = try run("lockstep", ["rules", "version.build-mismatch"])
        #expect(one.status == 0 && one.stdout.contains("ITMS-90473: CFBundleVersion Mismatch"), "\(one)")
        let json = try run("lockstep", ["rules", "--format", "json"])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == RuleCatalog.rules.count)
        #expect(array.first?["platforms"] as? [String] == ["iOS", "watchOS", "tvOS", "visionOS", "macOS"])
        let unknown = try run("lockstep", ["rules", "version.nope"])
        #expect(unknown.status == 2 && unknown.stderr.hasPrefix("lockstep rules: 'version.nope' is not a rule of lockstep check;"), "\(unknown)")
        #expect(try run("lockstep", ["rules", "--format", "yaml"]).status == 64)
    }

    /// The required structure of SARIF 2.1.0 (OASIS, §3): checked by hand here, with no schema library.
    @Test func sarifHasTheRequiredStructure() throws {
        let finding = Finding(rule: "version.build-mismatch", severity: .error, bundle: "App.app/PlugIns/W.appex",
                              path: "/work/repo/App/W/Info.plist", message: "The CFBundleVersion of an app extension ('1') must match …")
        let outside = Finding(rule: "settings.unresolved", severity: .warning, bundle: "App.app", path: "/elsewhere/Base.xcconfig", message: "m")
        let relative = Finding(rule: "custom.rule", severity: .note, bundle: "App.app", path: "App/Info.plist", message: "n")
        let text = Report.sarif(CheckResult(findings: [finding, outside, relative]), workingDirectory: "/work/repo")
        let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        #expect(log["$schema"] is String)
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "lockstep")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        for rule in rules {
            #expect(rule["id"] is String)
            #expect((rule["shortDescription"] as? [String: Any])?["text"] is String)
            #expect((rule["fullDescription"] as? [String: Any])?["text"] is String)
            #expect((rule["help"] as? [String: Any])?["text"] is String)
            #expect(["error", "warning", "note"].contains((rule["defaultConfiguration"] as? [String: Any])?["level"] as? String))
        }
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        #expect(results.count == 3)
        for result in results {
            let id = try #require(result["ruleId"] as? String)
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == id)
            #expect(["error", "warning", "note"].contains(result["level"] as? String))
            #expect((result["message"] as? [String: Any])?["text"] is String)
            let locations = try #require(result["locations"] as? [[String: Any]])
            #expect((locations.first?["physicalLocation"] as? [String: Any])?["artifactLocation"] is [String: Any])
        }
        func artifact(_ index: Int) -> [String: Any]? {
            ((results[index]["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any]
        }
        // Inside the working directory: relative, with the base id code scanning resolves against the checkout.
        #expect(artifact(0)?["uri"] as? String == "App/W/Info.plist")
        #expect(artifact(0)?["uriBaseId"] as? String == "%SRCROOT%")
        #expect(artifact(1)?["uri"] as? String == "file:///elsewhere/Base.xcconfig")
        #expect(artifact(2)?["uri"] as? String == "App/Info.plist")
        let bases = try #require(runs[0]["originalUriBaseIds"] as? [String: Any])
        #expect((bases["%SRCROOT%"] as? [String: Any])?["uri"] as? String == "file:///work/repo/")
    }
}

@testable import BundleKit
@testable import CheckKit
import Foundation
import LockstepTestSupport
import Testing

/// The rule catalogue (`lockstep rules`) and the SARIF report built from it.
@Suite struct RuleCatalogTests {
    /// The repository's `Sources` folder.
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardized

    /// The Swift files under `folder` (relative to `Sources`), as paths.
    static func swiftFiles(_ folder: String) -> [String] {
        let root = sources.appendingPathComponent(folder).path
        return (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? [])
            .map { root + "/" + $0 }.sorted()
    }

    /// Every rule is defined in exactly one file under `Sources/CheckKit/Rules/`: its id, description and logic; the
    /// catalogue (and so `lockstep rules`, SARIF and the reference) is derived from those files. A rule file reports
    /// only the ids it describes, every rule of check is reported by its file, and other product code names no rule
    /// but in `Rules.ids`.
    @Test func eachRuleIsDefinedInExactlyOneRuleFile() throws {
        let ruleFiles = Self.swiftFiles("CheckKit/Rules").filter { !$0.hasSuffix("/RuleCatalog.swift") && !$0.hasSuffix("/RuleID.swift") }
        #expect(ruleFiles.count >= 10)
        let texts = try ruleFiles.map { try String(contentsOfFile: $0, encoding: .utf8) }
        let ids = RuleCatalog.all.map(\.id.rawValue)
        #expect(ids.count > 60)
        #expect(Set(ids).count == ids.count, "an id is described twice")
        for id in ids {
            // Its description's first line (`id | severity | section`), or the logic that reports it.
            let files = zip(ruleFiles, texts).filter { $0.1.contains("\n        \(id) | ") || $0.1.contains("\"\(id)\"") }
                .map { URL(fileURLWithPath: $0.0).lastPathComponent }
            #expect(files.count == 1, "\(id) is defined in \(files.isEmpty ? "no rule file" : files.joined(separator: ", "))")
        }
        // A rule file's code names the ids it reports as literals ("version.missing"): each is one its own
        // descriptions hold (a finding's rule explains itself), and each rule of check is reported somewhere.
        let named = try NSRegularExpression(pattern: #""([a-z0-9-]+\.[a-z][a-z0-9-]*)""#)
        var reported: Set<String> = []
        for (file, text) in zip(ruleFiles, texts) {
            let described = Set(ids.filter { text.contains("\n        \($0) | ") })
            for match in named.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let id = String(text[Range(match.range(at: 1), in: text)!])
                reported.insert(id)
                #expect(described.contains(id), "\(URL(fileURLWithPath: file).lastPathComponent) reports \(id), which it does not describe")
            }
        }
        #expect(reported.count > 30)
        let checked = Set(RuleCatalog.rules.map(\.id.rawValue))
        #expect(checked.subtracting(reported).isEmpty, "checked but reported by no rule file: \(checked.subtracting(reported).sorted())")
        #expect(Rules.ids.allSatisfy { RuleCatalog.rule($0)?.isChecked == true }, "Rules.ids names a rule check does not describe")
        // Product code outside the rule files names a rule by its constant: the readers and the checks.
        let literal = try NSRegularExpression(pattern: #"(?:rule: |add\(|rule\(|: RuleID = )"[a-z-]+\.[a-z-]+""#)
        let others = ["BundleKit", "XcodeKit", "XcodeGenKit", "CheckKit"].flatMap(Self.swiftFiles).filter { !$0.contains("/CheckKit/Rules/") }
        #expect(others.count > 30)
        for file in others {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(literal.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil, "\(file) names a rule by a string")
        }
        #expect(RuleCatalog.all.allSatisfy { !$0.summary.isEmpty && !$0.appleText.isEmpty && !$0.fix.isEmpty && !$0.platforms.isEmpty
            && !$0.sources.isEmpty && !$0.enforcement.isEmpty })
        #expect(RuleCatalog.rule("bundle-id.single-component")?.platforms.contains(.macOS) == false)
    }

    @Test func rulesCommandListsExplainsAndRefuses() throws {
        let list = try run("lockstep", ["rules"])
        #expect(list.status == 0)
        // A heading per section, then its rules, indented.
        let lines = list.stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("  ") }.count == RuleCatalog.all.count)
        #expect(lines.filter { !$0.hasPrefix(" ") }.map(String.init) == RuleSection.allCases.map(\.rawValue))
        let one = try run("lockstep", ["rules", "version.build-mismatch"])
        #expect(one.status == 0 && one.stdout.contains("ITMS-90473: CFBundleVersion Mismatch"), "\(one)")
        let json = try run("lockstep", ["rules", "--format", "json"])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == RuleCatalog.all.count)
        let missing = try #require(array.first { $0["id"] as? String == "version.missing" })
        #expect(missing["platforms"] as? [String] == ["iOS", "watchOS", "tvOS", "visionOS", "macOS"])
        #expect(array.first { $0["id"] as? String == "widget.budget" }?["severity"] as? String == "runtime")
        let unknown = try run("lockstep", ["rules", "version.nope"])
        #expect(unknown.status == 2 && unknown.stderr.hasPrefix("lockstep rules: 'version.nope' is not a rule of Lockstep;"), "\(unknown)")
        #expect(try run("lockstep", ["rules", "--format", "yaml"]).status == 64)
        #expect(try run("lockstep", ["rules", "widget.budget", "--format", "markdown"]).status == 64)
    }

    /// Every rule id Lockstep prints answers `lockstep rules ID` (exit 0): the runtime's too, as the demo's checklist
    /// names them, and every rule a source comment cites as rule `ID`.
    @Test func everyRuleLockstepPrintsIsExplained() throws {
        let demo = try String(contentsOfFile: Self.sources.appendingPathComponent("LaunchKit/DemoScenario.swift").path, encoding: .utf8)
        let checklist = try NSRegularExpression(pattern: #"== .*\[([a-z0-9., -]+)\]"#)
        let printed = checklist.matches(in: demo, range: NSRange(demo.startIndex..., in: demo)).flatMap {
            demo[Range($0.range(at: 1), in: demo)!].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        #expect(printed.count > 20)
        let cited = try NSRegularExpression(pattern: #"rule `([a-z0-9-]+\.[a-z0-9-]+)`"#)
        var ids = Set(printed)
        for file in ["LockstepRuntime", "LaunchKit", "AppGroupKit", "WidgetKit", "WatchConnectivity", "AppIntents", "ActivityKit",
                     "LockstepFoundation", "UserNotifications", "BundleKit", "XcodeKit", "XcodeGenKit", "CheckKit"].flatMap(Self.swiftFiles) {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            for match in cited.matches(in: text, range: NSRange(text.startIndex..., in: text)) { ids.insert(String(text[Range(match.range(at: 1), in: text)!])) }
        }
        #expect(ids.count > 40)
        for id in ids.sorted() { #expect(RuleCatalog.rule(RuleID(rawValue: id)) != nil, "\(id) is printed or cited but `lockstep rules \(id)` does not know it") }
        let budget = try run("lockstep", ["rules", "widget.budget"])
        #expect(budget.status == 0 && budget.stdout.contains("40 to 70 refreshes") && budget.stdout.contains("What Lockstep does:"), "\(budget)")
    }

    /// The rules reference article is what `lockstep rules --format markdown` writes: edited in the rule files only.
    @Test func theCheckedInRulesArticleIsUpToDate() throws {
        let article = Self.sources.appendingPathComponent("lockstep/Lockstep.docc/Rules.md").path
        let generated = try run("lockstep", ["rules", "--format", "markdown"])
        #expect(generated.status == 0)
        let checkedIn = try String(contentsOfFile: article, encoding: .utf8)
        #expect(checkedIn == generated.stdout, "Sources/lockstep/Lockstep.docc/Rules.md is out of date; regenerate it with `swift run lockstep rules --format markdown > Sources/lockstep/Lockstep.docc/Rules.md`")
        for section in RuleSection.allCases { #expect(checkedIn.contains("\n## \(section.rawValue)\n")) }
    }

    /// Every `<doc:Rules> "Title"` and `<doc:ReadingProjects> "Title"` a source comment cites is a section of that
    /// article (`## Title` or `### Title`), so a reader can follow each citation.
    @Test func everyCitedArticleSectionExists() throws {
        let articles = ["Rules", "ReadingProjects"]
        var sections: [String: Set<String>] = [:]
        for article in articles {
            let text = try String(contentsOfFile: Self.sources.appendingPathComponent("lockstep/Lockstep.docc/\(article).md").path, encoding: .utf8)
            sections[article] = Set(text.split(separator: "\n").compactMap { line in
                line.hasPrefix("## ") ? String(line.dropFirst(3)) : line.hasPrefix("### ") ? String(line.dropFirst(4)) : nil
            })
        }
        let citation = try NSRegularExpression(pattern: #"<doc:(Rules|ReadingProjects)> "([^"]+)""#)
        let root = Self.sources.deletingLastPathComponent()
        let files = ["Sources", "Tests"].flatMap { folder in
            (FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)?.compactMap { $0 as? String }
                .filter { $0.hasSuffix(".swift") } ?? []).map { root.appendingPathComponent(folder).appendingPathComponent($0).path }
        }
        var cited = 0
        for file in files {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            for match in citation.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let article = String(text[Range(match.range(at: 1), in: text)!])
                // A title may wrap onto the comment's next line.
                let title = text[Range(match.range(at: 2), in: text)!].split(separator: "\n").map {
                    $0.trimmingCharacters(in: .whitespaces).drop(while: { $0 == "/" }).trimmingCharacters(in: .whitespaces)
                }.joined(separator: " ")
                guard title != "Title" else { continue }  // RuleSection's own documentation of the form
                cited += 1
                #expect(sections[article]?.contains(title) == true, "\(file) cites <doc:\(article)> \"\(title)\", which is no section of \(article).md")
            }
        }
        #expect(cited > 50)
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

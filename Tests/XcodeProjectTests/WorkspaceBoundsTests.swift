@testable import CheckKit
import Foundation
import LockstepTestSupport
import Testing
@testable import XcodeKit

/// A workspace comes from the checkout a pull request changes: reading it is linear and bounded (nesting, path
/// length, projects named), and the command `check` offers for it is safe to paste (security round four).
@Suite struct WorkspaceBoundsTests {
    /// Each open group kept its whole joined path, so N nested groups cost N² (32,000 levels, 1.3 MB: 4.5 GB).
    /// Groups past `maximumDepth` are read as the deepest kept one, so no path grows past that depth.
    @Test func deeplyNestedGroupsAreReadToABoundedDepth() {
        let levels = 20_000
        let text = "<Workspace version = \"1.0\">" + String(repeating: "<Group location = \"group:g\">", count: levels)
            + "<FileRef location = \"group:P.xcodeproj\"/>" + String(repeating: "</Group>", count: levels)
            + "<FileRef location = \"group:Top.xcodeproj\"/></Workspace>"
        let projects = XcodeWorkspace.projects(listedIn: text, workspace: "W.xcworkspace")
        #expect(projects.count == 2)
        #expect(projects.first == Array(repeating: "g", count: XcodeWorkspace.maximumDepth).joined(separator: "/") + "/P.xcodeproj")
        // The end tags of the groups not kept close nothing kept: the last project is at the top again.
        #expect(projects.last == "Top.xcodeproj")
        // A location longer than a path can be names nothing.
        let long = "<Workspace><FileRef location = \"group:\(String(repeating: "a", count: 5000)).xcodeproj\"/></Workspace>"
        #expect(XcodeWorkspace.projects(listedIn: long, workspace: "W.xcworkspace").isEmpty)
    }

    /// 80,000 references took 45 s: each new project was compared with every one before it. Each is listed once.
    @Test func manyReferencesAreEachListedOnceAndTheAdviceNamesAFew() throws {
        let references = (0..<30_000).map { "<FileRef location = \"group:P\($0 % 25_000).xcodeproj\"/>" }.joined()
        let projects = XcodeWorkspace.projects(listedIn: "<Workspace>" + references + "</Workspace>", workspace: "W.xcworkspace")
        #expect(projects.count == 25_000 && projects.first == "P0.xcodeproj" && projects.last == "P24999.xcodeproj")
        let advice = CheckInput.listedProjects(projects.map { "/nonexistent/" + $0 })
        #expect(advice.hasSuffix("/nonexistent/P19.xcodeproj and 24980 more"), "\(advice.suffix(200))")
    }

    /// A project named `--config=x.xcodeproj` was offered bare (an option once pasted); a `&#10;` in a location put
    /// a newline into the one-line sentence and the command.
    @Test func theCommandOfferedForAWorkspaceIsSafeToPaste() throws {
        #expect(CheckInput.shellWords(["--config=x.xcodeproj", "-x/P.xcodeproj", "/abs/-P.xcodeproj"])
                == "./--config=x.xcodeproj ./-x/P.xcodeproj /abs/-P.xcodeproj")
        #expect(CheckInput.shellWords(["a\nb.xcodeproj", "it's\u{1B}[2J.xcodeproj"]) == #"$'a\nb.xcodeproj' $'it\'s\u001B[2J.xcodeproj'"#)
        let tree = try FixtureTree(["W.xcworkspace/contents.xcworkspacedata": """
            <Workspace version = "1.0">
               <FileRef location = "group:--config=x.xcodeproj"/>
               <FileRef location = "group:a&#10;b.xcodeproj"/>
            </Workspace>
            """, "--config=x.xcodeproj/project.pbxproj": "{}"])
        defer { tree.cleanUp() }
        let advice = CheckInput.workspaceAdvice(tree.path + "/W.xcworkspace")
        #expect(!advice.contains("\n"), "\(advice)")
        #expect(advice.hasSuffix("`lockstep check \(tree.path)/--config=x.xcodeproj` (not here: \(tree.path)/a\\nb.xcodeproj)"), "\(advice)")
    }
}

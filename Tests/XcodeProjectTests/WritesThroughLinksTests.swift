import Foundation
import LockstepTestSupport
import Testing

/// What `bump` and `--write-baseline` write is a checkout's file, and a checkout comes from pull requests, which can
/// commit symbolic links: a write goes through a link only to a file in the link's own folder (or below it), bump
/// edits only files inside the project's folder or the working directory, and a file reached under two names gets
/// every edit (security round four).
@Suite struct WritesThroughLinksTests {
    static func plist(_ type: String, extensionPoint: String? = nil) -> String {
        let point = extensionPoint.map { "<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>\($0)</string></dict>" } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
            <key>CFBundlePackageType</key><string>\(type)</string>
            <key>CFBundleShortVersionString</key><string>$(MARKETING_VERSION)</string>
            <key>CFBundleVersion</key><string>$(CURRENT_PROJECT_VERSION)</string>\(point)
            </dict></plist>
            """
    }

    /// An app and its widget whose Debug configuration reads `debug` and Release `release` (xcconfig names).
    static func files(debug: String, release: String) -> [String: String] {
        ["checkout/project.yml": """
            name: P
            configFiles:
              Debug: \(debug)
              Release: \(release)
            targets:
              App:
                type: application
                platform: iOS
                dependencies: [{target: W}]
                settings: {PRODUCT_BUNDLE_IDENTIFIER: com.example.app, INFOPLIST_FILE: App.plist}
              W:
                type: app-extension
                platform: iOS
                settings: {PRODUCT_BUNDLE_IDENTIFIER: com.example.app.widget, INFOPLIST_FILE: W.plist}
            """,
         "checkout/App.plist": plist("APPL"), "checkout/W.plist": plist("XPC!", extensionPoint: "com.apple.widgetkit-extension"),
         "checkout/Shared.xcconfig": "MARKETING_VERSION = 1.0\nCURRENT_PROJECT_VERSION[config=Debug] = 41\nCURRENT_PROJECT_VERSION[config=Release] = 41\n"]
    }

    /// One xcconfig is Debug's under its own name and Release's through a link beside it: each name's edit was made
    /// from the original text, so the second write undid the first and Release kept 41 while bump said "updated".
    @Test func oneFileReachedUnderTwoNamesGetsEveryEdit() throws {
        let tree = try FixtureTree(Self.files(debug: "Shared.xcconfig", release: "Release.xcconfig"))
        defer { tree.cleanUp() }
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/checkout/Release.xcconfig", withDestinationPath: "Shared.xcconfig")
        let bump = try run("lockstep", ["bump", "project.yml", "--build", "50"], currentDirectory: tree.path + "/checkout")
        #expect(bump.status == 0, "\(bump)")
        #expect(try tree.read("checkout/Shared.xcconfig") == "MARKETING_VERSION = 1.0\nCURRENT_PROJECT_VERSION[config=Debug] = 50\nCURRENT_PROJECT_VERSION[config=Release] = 50\n")
        #expect(FileManager.default.fileExists(atPath: tree.path + "/checkout/Release.xcconfig") && (try? FileManager.default.destinationOfSymbolicLink(atPath: tree.path + "/checkout/Release.xcconfig")) == "Shared.xcconfig")
        let check = try run("lockstep", ["check", "project.yml"], currentDirectory: tree.path + "/checkout")
        #expect(check.status == 0, "\(check)")
    }

    /// A spec naming an xcconfig outside its folder, run from that folder: nothing is written, exit 2.
    @Test func bumpLeavesAFileOutsideTheProjectAndTheWorkingDirectoryAlone() throws {
        var files = Self.files(debug: "../outside/Shared.xcconfig", release: "../outside/Shared.xcconfig")
        files["outside/Shared.xcconfig"] = files.removeValue(forKey: "checkout/Shared.xcconfig")
        let tree = try FixtureTree(files)
        defer { tree.cleanUp() }
        let bump = try run("lockstep", ["bump", "project.yml", "--build", "50"], currentDirectory: tree.path + "/checkout")
        #expect(bump.status == 2, "\(bump)")
        #expect(bump.stderr.contains("it is outside the project's folder and the working directory; nothing was written"), "\(bump)")
        #expect(try tree.read("outside/Shared.xcconfig") == files["outside/Shared.xcconfig"])
        // Run from the folder holding both, the same edit is the user's own.
        let fromAbove = try run("lockstep", ["bump", "checkout/project.yml", "--build", "50"], currentDirectory: tree.path)
        #expect(fromAbove.status == 0, "\(fromAbove)")
    }

    /// A committed `lockstep-baseline.json` that links to `../home/.profile`: the documented refresh replaced that
    /// file with JSON. A link leading out of its folder is refused; a link to a file below it is written through.
    @Test func aBaselineLinkLeadingOutOfItsFolderIsNotWrittenThrough() throws {
        var files = Self.files(debug: "Shared.xcconfig", release: "Shared.xcconfig")
        files["home/.profile"] = "export PATH=$HOME/bin:$PATH\n"
        let tree = try FixtureTree(files)
        defer { tree.cleanUp() }
        let checkout = tree.path + "/checkout"
        try FileManager.default.createSymbolicLink(atPath: checkout + "/lockstep-baseline.json", withDestinationPath: "../home/.profile")
        let refused = try run("lockstep", ["check", "project.yml", "--write-baseline", "lockstep-baseline.json"], currentDirectory: checkout)
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("it is a symbolic link to './../home/.profile', outside the folder that holds the link; the baseline was not written"), "\(refused)")
        #expect(try tree.read("home/.profile") == "export PATH=$HOME/bin:$PATH\n")

        try FileManager.default.createDirectory(atPath: checkout + "/ci", withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: checkout + "/lockstep-baseline.json")
        try FileManager.default.createSymbolicLink(atPath: checkout + "/lockstep-baseline.json", withDestinationPath: "ci/baseline.json")
        let inside = try run("lockstep", ["check", "project.yml", "--write-baseline", "lockstep-baseline.json"], currentDirectory: checkout)
        #expect(inside.status == 0, "\(inside)")
        #expect(try tree.read("checkout/ci/baseline.json").contains("\"findings\""))
    }
}

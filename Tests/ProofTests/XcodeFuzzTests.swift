import BundleKit
import CheckKit
import Foundation
import LockstepSystem
import LockstepTestSupport
import Testing

/// Mutated Xcode projects — the project.pbxproj and the xcconfig chain it points at — read the way `lockstep check`
/// reads them: every case is checked or refused with a `BundleError`, never a trap, a hang or a foreign error.
///
/// Deterministic, like `BundleFuzzTests`; run longer with `LOCKSTEP_FUZZ_CASES` / `LOCKSTEP_FUZZ_SEED`. A case costs
/// a whole `check` of a four-target project (a few milliseconds), so the default is 1,000 cases per file kind.
@Suite struct XcodeFuzzTests {
    static let pbxprojTokens = [
        "{", "}", "(", ")", ";", "=", ",", "\"", "/*", "*/", "//", "\\", "isa = PBXNativeTarget;",
        "isa = PBXCopyFilesBuildPhase;", "dstSubfolderSpec = 16;", "buildConfigurationList = ", "rootObject = ",
        "objectVersion = 77;", "baseConfigurationReferenceAnchor = ", "$(inherited)", "$(CURRENT_PROJECT_VERSION)",
        "5A0000000000000000000001", "<group>", "\u{0}",
        // Issue 42: Xcode 26's copy phases, platform filters and version-writing script phases.
        "dstSubfolder = PlugIns;", "dstSubfolder = Product;", "platformFilters = (tvos, maccatalyst, );", "SUPPORTED_PLATFORMS = \"iphoneos appletvos\";",
        "isa = PBXShellScriptBuildPhase;", "shellScript = \"PlistBuddy -c 'Set :CFBundleVersion 1' \\\"$INFOPLIST_PATH\\\"\";",
    ]

    static let xcconfigTokens = [
        "#include \"", "#include? \"", "#include \"Base.xcconfig\"\n", "#include \"Shared.xcconfig\"\n", "$(", "${", "$",
        ")", "}", "$(inherited)", "$(MARKETING_VERSION)", "[config=Debug]", "[sdk=iphoneos*]", "[arch=*]", "//", "=",
        ";", ":rfc1034identifier", ":default=", ":lower", "$(A_$(B))", "\n", "CURRENT_PROJECT_VERSION = ",
    ]

    /// A generated sample project whose project-level configurations take their versions from an xcconfig
    /// chain (`Config/Base.xcconfig` includes `Shared.xcconfig`).
    static func project(in directory: String) throws -> (xcodeproj: String, pbxproj: [UInt8]) {
        let xcodeproj = try XcodeProjectInput.generateSampleProject(at: directory, targets: 4)
        var text = String(decoding: try AtomicFile.read(xcodeproj + "/project.pbxproj")!, as: UTF8.self)
        let reference = "F0F0F0F0F0F0F0F0F0F0F0F0"
        text = text.replacingOccurrences(
            of: "isa = XCBuildConfiguration;\n\t\t\tbuildSettings = {\n\t\t\t\tCURRENT_PROJECT_VERSION = 42;\n\t\t\t\tMARKETING_VERSION = 1.4.0;",
            with: "isa = XCBuildConfiguration;\n\t\t\tbaseConfigurationReference = \(reference) /* Base.xcconfig */;\n\t\t\tbuildSettings = {")
        text = text.replacingOccurrences(
            of: "\tobjects = {\n",
            with: "\tobjects = {\n\t\t\(reference) /* Base.xcconfig */ = {isa = PBXFileReference; lastKnownFileType = text.xcconfig; path = Config/Base.xcconfig; sourceTree = SOURCE_ROOT; };\n")
        try AtomicFile.createDirectories(directory + "/Config")
        try AtomicFile.write("#include \"Shared.xcconfig\"\n#include? \"Local.xcconfig\"\nCURRENT_PROJECT_VERSION = $(BASE_BUILD)\nMARKETING_VERSION[config=Release] = 1.4.0 // shipped\nMARKETING_VERSION[config=Debug] = $(MARKETING_VERSION:default=1.4.0)\n",
                             to: directory + "/Config/Base.xcconfig")
        try AtomicFile.write("BASE_BUILD = 42;\nOTHER_SWIFT_FLAGS = $(inherited) -DSHARED\n", to: directory + "/Config/Shared.xcconfig")
        try AtomicFile.write(text, to: xcodeproj + "/project.pbxproj")
        return (xcodeproj, Array(text.utf8))
    }

    static func isClean(_ error: any Error) -> Bool { error is BundleError }

    @Test func theSeedProjectReadsItsVersionsFromTheXcconfigs() throws {
        let directory = TestSupport.temporaryDirectory("proof-xcode-seed")
        defer { TestSupport.cleanUp(directory) }
        let (xcodeproj, _) = try Self.project(in: directory.path)
        let result = try CheckInput.check(xcodeproj)
        #expect(!result.sets.isEmpty)
        for set in result.sets {
            #expect(set.app.buildVersion == "42")
            #expect(set.app.shortVersion == "1.4.0")
        }
    }

    @Test func mutatedPbxproj() throws {
        let directory = TestSupport.temporaryDirectory("proof-xcode-pbxproj")
        defer { TestSupport.cleanUp(directory) }
        let (xcodeproj, seed) = try Self.project(in: directory.path)
        let outcome = fuzz("project.pbxproj", seeds: [seed], tokens: Self.pbxprojTokens,
                           cases: FuzzSettings.cases(standard: 1_000), isClean: Self.isClean) { bytes in
            try writeCase(bytes, to: xcodeproj + "/project.pbxproj")
            _ = try CheckInput.check(xcodeproj)
        }
        #expect(outcome.foreignErrors.isEmpty, "\(outcome.foreignErrors)")
        #expect(outcome.rejected > 0 && outcome.accepted > 0, "\(outcome)")
    }

    @Test func mutatedXcconfigs() throws {
        let directory = TestSupport.temporaryDirectory("proof-xcode-xcconfig")
        defer { TestSupport.cleanUp(directory) }
        let (xcodeproj, _) = try Self.project(in: directory.path)
        let base = directory.path + "/Config/Base.xcconfig", shared = directory.path + "/Config/Shared.xcconfig"
        let seeds = [try AtomicFile.read(base)!, try AtomicFile.read(shared)!]
        let outcome = fuzz("xcconfig", seeds: seeds, tokens: Self.xcconfigTokens,
                           cases: FuzzSettings.cases(standard: 1_000), isClean: Self.isClean) { bytes in
            // Either file of the chain, so an include cycle or a missing include can come from both ends; the other
            // one is its seed again, so each case is reproducible on its own.
            let target = bytes.count % 2 == 0 ? base : shared
            try writeCase(target == base ? seeds[1] : seeds[0], to: target == base ? shared : base)
            try writeCase(bytes, to: target)
            _ = try CheckInput.check(xcodeproj)
        }
        #expect(outcome.foreignErrors.isEmpty, "\(outcome.foreignErrors)")
        #expect(outcome.cases > 0, "\(outcome)")
    }
}

import BuildKit
import BundleKit
import Testing

/// rule-free, but the reason a team's files build unchanged: the build copy of a file has the conditions of its
/// target's platform, and nothing else of it changes.
@Suite struct PlatformConditionsTests {
    @Test func osIsTheTargetsPlatform() {
        let source = "#if os(iOS)\nlet a = 1\n#elseif os(watchOS)\nlet a = 2\n#else\nlet a = 3\n#endif"
        #expect(PlatformConditions.rewrite(source, platform: .iOS) == "#if true\nlet a = 1\n#elseif false\nlet a = 2\n#else\nlet a = 3\n#endif")
        #expect(PlatformConditions.rewrite(source, platform: .watchOS) == "#if false\nlet a = 1\n#elseif true\nlet a = 2\n#else\nlet a = 3\n#endif")
        #expect(PlatformConditions.rewrite(source, platform: .macOS).hasPrefix("#if false\n"))
    }

    @Test func compoundConditionsKeepTheirOperatorsAndComments() {
        let line = "  #if (os(iOS) || os(visionOS)) && !targetEnvironment(macCatalyst) && canImport(UIKit) // phone"
        #expect(PlatformConditions.rewrite(line, platform: .iOS)
                == "  #if (true || false) && !false && canImport(UIKit) // phone")
        #expect(PlatformConditions.rewrite("#if targetEnvironment( simulator )", platform: .watchOS) == "#if true")
        #expect(PlatformConditions.rewrite("#if os(Linux) || os(OSX)", platform: .macOS) == "#if false || true")
        // The host's truth is kept where it decides what builds (a C library) or is no platform.
        #expect(PlatformConditions.rewrite("#if canImport(Darwin) && arch(arm64) && swift(>=5.9) && DEBUG", platform: .iOS)
                == "#if canImport(Darwin) && arch(arm64) && swift(>=5.9) && DEBUG")
    }

    @Test func onlyDirectivesChange() {
        let source = """
            let text = "#if os(iOS)"
            // #if os(iOS)
            let os = os(iOS)
            /* a block comment
            #if os(iOS)
            */
            let multiline = \"\"\"
            #if os(iOS)
            \"\"\"
            #if os(iOS)
            #endif
            """
        let rewritten = PlatformConditions.rewrite(source, platform: .watchOS)
        let lines = rewritten.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == source.split(separator: "\n", omittingEmptySubsequences: false).count)
        #expect(lines[0] == "let text = \"#if os(iOS)\"")
        #expect(lines[1] == "// #if os(iOS)")
        #expect(lines[2] == "let os = os(iOS)")
        #expect(lines[4] == "#if os(iOS)")
        #expect(lines[7] == "#if os(iOS)")
        #expect(lines[9] == "#if false")
    }

    @Test func aFileWithoutConditionsIsUnchanged() {
        let source = "import SwiftUI\n\nstruct A {}\n"
        #expect(PlatformConditions.rewrite(source, platform: .iOS) == source)
        #expect(PlatformConditions.rewrite("", platform: .iOS) == "")
    }
}

@testable import BuildKit
import Foundation
import LockstepTestSupport
import Testing

/// A project's packages fetched from a URL: the generated package depends on them at the versions the project's
/// Package.resolved pins (else as declared), SwiftPM fetches them, and one it cannot fetch is one sentence.
/// The "remote" package is a git repository the test makes, so nothing here needs a network.
@Suite(.serialized) struct RemotePackageTests {
    /// A git repository `Greeter` whose product `GreeterKit` says which tag it is: 1.0.0, then 1.1.0; 2.0.0 needs UIKit.
    static func greeterRepository(in folder: URL) throws -> URL {
        let repository = folder.appendingPathComponent("repositories/Greeter")
        let sources = repository.appendingPathComponent("Sources/GreeterKit")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try """
            // swift-tools-version:5.9
            import PackageDescription
            let package = Package(name: "Greeter", products: [.library(name: "GreeterKit", targets: ["GreeterKit"])],
                                  targets: [.target(name: "GreeterKit")])
            """.write(to: repository.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let git = { (arguments: [String]) throws in
            let result = try run("/usr/bin/git", ["-C", repository.path, "-c", "user.name=Test", "-c", "user.email=test@example.com"] + arguments)
            #expect(result.status == 0, "\(result)")
        }
        try git(["init", "-q"])
        for version in ["1.0.0", "1.1.0"] {
            try "public enum Greeter { public static let greeting = \"hello from \(version)\" }\n"
                .write(to: sources.appendingPathComponent("Greeter.swift"), atomically: true, encoding: .utf8)
            try git(["add", "."])
            try git(["commit", "-q", "-m", version])
            try git(["tag", version])
        }
        // 2.0.0 is for iOS only, as most packages of iOS apps are.
        try "import UIKit\npublic enum Greeter { public static let greeting = \"hello in \\(UIColor.red)\" }\n"
            .write(to: sources.appendingPathComponent("Greeter.swift"), atomically: true, encoding: .utf8)
        try git(["commit", "-q", "-a", "-m", "2.0.0"])
        try git(["tag", "2.0.0"])
        return repository
    }

    /// An app whose one target prints the greeting of the package `url`'s product, and its spec.
    static func helloProject(in folder: URL, url: String, requirement: String = "from: \"1.0\"") throws -> (project: URL, spec: String) {
        let project = folder.appendingPathComponent("Hello")
        try FileManager.default.createDirectory(at: project.appendingPathComponent("App"), withIntermediateDirectories: true)
        try """
            import GreeterKit
            import SwiftUI

            @main
            struct HelloApp: App {
                init() { print("greeting: \\(Greeter.greeting)") }
                var body: some Scene { WindowGroup { Text("Hello") } }
            }
            """.write(to: project.appendingPathComponent("App/HelloApp.swift"), atomically: true, encoding: .utf8)
        try """
            name: Hello
            options:
              bundleIdPrefix: com.example
            packages:
              Greeter:
                url: \(url)
                \(requirement)
            targets:
              Hello:
                type: application
                platform: iOS
                sources: [App]
                info:
                  path: App/Info.plist
                  properties:
                    CFBundleShortVersionString: "1.0"
                    CFBundleVersion: "1"
                dependencies:
                  - package: Greeter
                    product: GreeterKit
            """.write(to: project.appendingPathComponent("project.yml"), atomically: true, encoding: .utf8)
        return (project, project.appendingPathComponent("project.yml").path)
    }

    /// Xcode's Package.resolved for the project (format 2), pinning `greeter` to `state`.
    static func pin(_ project: URL, url: String, state: String) throws {
        let folder = project.appendingPathComponent("Hello.xcodeproj/project.xcworkspace/xcshareddata/swiftpm")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
            {
              "pins" : [
                { "identity" : "greeter", "kind" : "remoteSourceControl", "location" : "\(url)", "state" : { \(state) } }
              ],
              "version" : 2
            }
            """.write(to: folder.appendingPathComponent("Package.resolved"), atomically: true, encoding: .utf8)
    }

    /// The pin wins over the declared requirement, in each of Package.resolved's formats; without one, or with
    /// `--unpinned`, the requirement is the project's; a product stood in needs no package.
    @Test func theGeneratedPackagePinsWhatXcodeResolved() throws {
        let folder = TestSupport.temporaryDirectory("remote-plan")
        defer { TestSupport.cleanUp(folder) }
        let url = "https://github.com/example/Greeter.git"
        let (project, spec) = try Self.helloProject(in: folder, url: url)

        let declared = try BuildPlan.make(.init(project: spec))
        let app = try #require(declared.modules.first { $0.name == "Hello" })
        #expect(app.packageProducts == [.init(name: "GreeterKit", package: "greeter")] && app.blocker == nil)
        let manifest = GeneratedPackage(platform: .iOS, modules: declared.modules, folder: "/nowhere", lockstep: "/lockstep",
                                        remotePackages: declared.remotePackages).manifest(withStandInHost: false)
        #expect(manifest.contains(#".package(url: "https://github.com/example/Greeter.git", from: "1.0.0"),"#), "\(manifest)")
        #expect(manifest.contains(#".product(name: "GreeterKit", package: "greeter")"#), "\(manifest)")

        try Self.pin(project, url: url, state: #""revision" : "a1b2c3", "version" : "1.0.3""#)
        #expect(try BuildPlan.make(.init(project: spec)).remotePackages.map(\.dependencyLine) == [#".package(url: "https://github.com/example/Greeter.git", exact: "1.0.3")"#])
        #expect(try BuildPlan.make(.init(project: spec, unpinned: true)).remotePackages.map(\.dependencyLine) == [#".package(url: "https://github.com/example/Greeter.git", from: "1.0.0")"#])
        try Self.pin(project, url: url, state: #""branch" : "main", "revision" : "a1b2c3""#)
        #expect(try BuildPlan.make(.init(project: spec)).remotePackages.map(\.dependencyLine) == [#".package(url: "https://github.com/example/Greeter.git", revision: "a1b2c3")"#])

        // Format 1 (Xcode 12), in a workspace beside the project, which wins over the project's own.
        let workspace = project.appendingPathComponent("Hello.xcworkspace/xcshareddata/swiftpm")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        try """
            {"object": {"pins": [{"package": "Greeter", "repositoryURL": "\(url)", "state": {"branch": null, "revision": "d4e5f6", "version": "1.0.7"}}]}, "version": 1}
            """.write(to: workspace.appendingPathComponent("Package.resolved"), atomically: true, encoding: .utf8)
        #expect(try BuildPlan.make(.init(project: spec)).remotePackages.first?.pin == .init(version: "1.0.7", revision: "d4e5f6", branch: nil))
        // One that is not Xcode's JSON is refused before anything is written (exit 2), naming the file.
        try "{\"pins\": ".write(to: workspace.appendingPathComponent("Package.resolved"), atomically: true, encoding: .utf8)
        #expect { try BuildPlan.make(.init(project: spec)) } throws: { error in
            "\(error)".hasPrefix("The project's Package.resolved '\(workspace.path)/Package.resolved' could not be read")
                && (error as? BuildError)?.exitStatus.rawValue == 2
        }
        try FileManager.default.removeItem(at: workspace.appendingPathComponent("Package.resolved"))

        // XcodeGen's other requirements.
        for (written, line) in [("exactVersion: 1.2.0", #"exact: "1.2.0""#), ("minorVersion: 1.2.0", #".upToNextMinor(from: "1.2.0")"#),
                                ("minVersion: 1.0.0\n    maxVersion: 3.0.0", #""1.0.0"..<"3.0.0""#), ("branch: develop", #"branch: "develop""#),
                                ("revision: 0a1b", #"revision: "0a1b""#)] {
            let (_, other) = try Self.helloProject(in: folder.appendingPathComponent(UUID().uuidString), url: url, requirement: written)
            #expect(try BuildPlan.make(.init(project: other)).remotePackages.first?.dependencyLine == ".package(url: \"\(url)\", \(line))")
        }

        // A stand-in for the product: a module of the team's Linux files, and no package to fetch.
        let standIn = folder.appendingPathComponent("linux/GreeterKit")
        try FileManager.default.createDirectory(at: standIn, withIntermediateDirectories: true)
        try "public enum Greeter { public static let greeting = \"hello from Linux\" }\n".write(to: standIn.appendingPathComponent("Greeter.swift"), atomically: true, encoding: .utf8)
        let stoodIn = try BuildPlan.make(.init(project: spec, standIns: ["GreeterKit": standIn.path]))
        #expect(stoodIn.modules.first { $0.name == "Hello" }?.dependencies == ["GreeterKit"])
        #expect(stoodIn.modules.flatMap(\.packageProducts).isEmpty)
    }

    /// A package SwiftPM cannot fetch, and a pin to a revision the repository does not hold: one sentence naming
    /// the package, its product and what to do, exit 69, before anything compiles; the team's files are untouched.
    @Test func aPackageThatCannotBeFetchedIsOneSentence() throws {
        let folder = TestSupport.temporaryDirectory("remote-fetch")
        defer { TestSupport.cleanUp(folder) }
        let missing = folder.appendingPathComponent("repositories/Missing.git").path
        let (project, spec) = try Self.helloProject(in: folder, url: missing)
        let before = try ProjectBuildTests.snapshot(project)
        let unreachable = try run("lockstep", ["build", spec], timeout: 600)
        #expect(unreachable.status == 69, "\(unreachable)")
        #expect(unreachable.stderr.contains("The package 'missing' (\(missing)), which the product 'GreeterKit' comes from, could not be fetched: "), "\(unreachable.stderr)")
        #expect(unreachable.stderr.contains(#"stand in for it with a folder of Linux files in .lockstep.json: "standIns": {"GreeterKit": "FOLDER"}."#), "\(unreachable.stderr)")
        // One sentence, after the progress line that says what is being fetched.
        #expect(unreachable.stderr.split(separator: "\n").filter { !$0.hasPrefix("lockstep build: fetching ") }.count == 1, "\(unreachable)")
        #expect(unreachable.stdout.isEmpty, "\(unreachable)")
        #expect(try ProjectBuildTests.snapshot(project) == before)
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent(".build/lockstep/lockstep.json").path))

        // Every package SwiftPM cannot fetch is named at once, with every stand-in to paste.
        var text = try String(contentsOfFile: spec, encoding: .utf8)
        text = text.replacingOccurrences(of: "targets:\n", with: "  Other:\n    url: \(missing)-other\n    from: 2.0.0\ntargets:\n")
        text += "\n      - package: Other\n        product: OtherKit\n"
        try text.write(toFile: spec, atomically: true, encoding: .utf8)
        let both = try run("lockstep", ["build", spec], timeout: 600)
        #expect(both.status == 69, "\(both)")
        #expect(both.stderr.contains("; nor could 'missing.git-other': "), "\(both.stderr)")
        #expect(both.stderr.contains(#"stand in for them with a folder of Linux files in .lockstep.json: "standIns": {"GreeterKit": "FOLDER", "OtherKit": "FOLDER"}."#), "\(both.stderr)")

        // A revision pin from another copy of the repository (GitHub's commit ids are not a mirror's).
        let repository = try Self.greeterRepository(in: folder)
        let (pinned, pinnedSpec) = try Self.helloProject(in: folder.appendingPathComponent("pinned"), url: repository.path)
        try Self.pin(pinned, url: repository.path, state: #""branch" : "main", "revision" : "0123456789abcdef0123456789abcdef01234567""#)
        let revision = try run("lockstep", ["build", pinnedSpec], timeout: 600)
        #expect(revision.status == 69, "\(revision)")
        #expect(revision.stderr.contains("The package 'greeter' (\(repository.path)), which the product 'GreeterKit' comes from, is pinned by Package.resolved to revision 0123456789abcdef0123456789abcdef01234567, which the repository SwiftPM reached does not hold"), "\(revision.stderr)")
        #expect(revision.stderr.contains("build with --unpinned to take the requirement the project declares (from 1.0 up to the next major version), or stand in"), "\(revision.stderr)")
    }

    /// The whole path, with real processes: the app links a product of a package fetched from a (local) git
    /// repository; unpinned it gets the newest version the requirement allows, pinned the one Package.resolved
    /// names, stood in the team's Linux files, and at a version that needs UIKit the report says what to stand in.
    @Test func anAppLinkingAFetchedProductBuildsAndRuns() throws {
        let folder = TestSupport.temporaryDirectory("remote-build")
        defer { TestSupport.cleanUp(folder) }
        let repository = try Self.greeterRepository(in: folder)
        let (project, spec) = try Self.helloProject(in: folder, url: repository.path)
        let before = try ProjectBuildTests.snapshot(project)

        let newest = try run("lockstep", ["up", spec, "--no-color"], timeout: 1200)
        #expect(newest.status == 0, "\(newest)")
        #expect(newest.stdout.contains("greeting: hello from 1.1.0"), "\(newest.stdout)")
        #expect(try ProjectBuildTests.snapshot(project) == before, "the team's files changed")

        try Self.pin(project, url: repository.path, state: #""revision" : "unused", "version" : "1.0.0""#)
        let pinned = try run("lockstep", ["up", spec, "--no-color"], timeout: 900)
        #expect(pinned.status == 0, "\(pinned)")
        #expect(pinned.stdout.contains("greeting: hello from 1.0.0"), "\(pinned.stdout)")

        let standIn = folder.appendingPathComponent("linux/GreeterKit")
        try FileManager.default.createDirectory(at: standIn, withIntermediateDirectories: true)
        try "public enum Greeter { public static let greeting = \"hello from Linux\" }\n".write(to: standIn.appendingPathComponent("Greeter.swift"), atomically: true, encoding: .utf8)
        let config = folder.appendingPathComponent("lockstep-config.json")
        try #"{"standIns": {"GreeterKit": "linux/GreeterKit"}}"#.write(to: config, atomically: true, encoding: .utf8)
        let stoodIn = try run("lockstep", ["up", spec, "--no-color", "--config", config.path], timeout: 900)
        #expect(stoodIn.status == 0, "\(stoodIn)")
        #expect(stoodIn.stdout.contains("greeting: hello from Linux") && stoodIn.stdout.contains("(with stand-ins)"), "\(stoodIn.stdout)")

        // A version that does not build on Linux: the report names the package, its product, the file and the stand-in.
        try Self.pin(project, url: repository.path, state: #""revision" : "unused", "version" : "2.0.0""#)
        let failed = try run("lockstep", ["build", spec], timeout: 900)
        #expect(failed.status == 1, "\(failed)")
        // (The compiler's error depends on what was built before: `no such module 'UIKit'` in Greeter.swift, or,
        // with Lockstep's UIKit built, a module UIKit needs that the package cannot see.)
        #expect(failed.stdout.contains("the package 'greeter' ('GreeterKit') does not build on Linux"), "\(failed.stdout)")
        #expect(failed.stdout.contains("; stand in for it with a folder of Linux files in .lockstep.json: \"standIns\": {\"GreeterKit\": \"FOLDER\"}"), "\(failed.stdout)")
    }
}

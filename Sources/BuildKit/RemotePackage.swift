import BundleKit
import Foundation
import XcodeKit

/// A package the generated package depends on by URL, as SwiftPM fetches it: at the version Xcode resolved
/// (the project's `Package.resolved`), else at the requirement the project declares (<doc:RunningYourProject>
/// "Packages fetched from a URL"). Lockstep downloads nothing itself.
public struct RemotePackage: Sendable, Equatable {
    /// What `Package.resolved` says Xcode resolved the package to.
    public struct Pin: Sendable, Equatable {
        public var version: String?
        public var revision: String?
        public var branch: String?
    }

    public var url: String
    /// SwiftPM's identity of `url`, which `.product(name:package:)` names.
    public var identity: String
    package var declared: RemotePackageReference.Requirement
    /// The pin that wins over `declared`, when the project's Package.resolved has one.
    public var pin: Pin?
    /// Its products the project's targets or local packages link.
    public var products: [String]

    /// The requirement the generated package gives SwiftPM: the pinned version exactly, else the pinned revision,
    /// else the declared one.
    var requirement: RemotePackageReference.Requirement {
        if let version = pin?.version { return .exact(version) }
        if let revision = pin?.revision { return .revision(revision) }
        return declared
    }

    /// Its line among the generated Package.swift's dependencies.
    var dependencyLine: String {
        let url = GeneratedPackage.literal(url)
        return switch requirement {
        case .upToNextMajor(let version): ".package(url: \(url), from: \(Self.version(version)))"
        case .upToNextMinor(let version): ".package(url: \(url), .upToNextMinor(from: \(Self.version(version))))"
        case .exact(let version): ".package(url: \(url), exact: \(Self.version(version)))"
        case .range(let low, let high): ".package(url: \(url), \(Self.version(low))..<\(Self.version(high)))"
        case .branch(let branch): ".package(url: \(url), branch: \(GeneratedPackage.literal(branch)))"
        case .revision(let revision): ".package(url: \(url), revision: \(GeneratedPackage.literal(revision)))"
        }
    }

    /// How the declared requirement reads in a sentence: `from 1.0.0 up to the next major version`.
    var declaredText: String {
        switch declared {
        case .upToNextMajor(let version): "from \(version) up to the next major version"
        case .upToNextMinor(let version): "from \(version) up to the next minor version"
        case .exact(let version): "exactly \(version)"
        case .range(let low, let high): "\(low) up to \(high)"
        case .branch(let branch): "branch \(branch)"
        case .revision(let revision): "revision \(revision)"
        }
    }

    /// A version literal SwiftPM parses: Xcode and XcodeGen accept `1.0`, SwiftPM's `Version` wants three numbers.
    static func version(_ text: String) -> String {
        let written = text.hasPrefix("v") ? String(text.dropFirst()) : text
        let end = written.firstIndex { $0 == "-" || $0 == "+" } ?? written.endIndex
        var core = written[..<end].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        while core.count < 3 { core.append("0") }
        return GeneratedPackage.literal(core.joined(separator: ".") + written[end...])
    }

    /// The packages of `references` (the project's first, then its local packages'), one per identity, each with
    /// its pin from `pins` unless `unpinned`.
    static func merge(_ references: [RemotePackageReference], pins: [String: Pin], unpinned: Bool) -> [RemotePackage] {
        var result: [RemotePackage] = []
        for reference in references {
            if let index = result.firstIndex(where: { $0.identity == reference.identity }) {
                result[index].products += reference.products.filter { !result[index].products.contains($0) }
                continue
            }
            result.append(RemotePackage(url: reference.url, identity: reference.identity, declared: reference.requirement,
                                        pin: unpinned ? nil : pins[reference.identity], products: reference.products))
        }
        return result
    }
}

/// The project's `Package.resolved`: what Xcode resolved each package to.
enum PackageResolved {
    /// The file Xcode keeps for the project: its workspace's (a `.xcworkspace` beside it, which the team opens
    /// instead when it has one), else the project's own `project.xcworkspace`; for a spec, those of the project
    /// XcodeGen generates beside it.
    static func path(for project: XcodeProject) -> String? {
        let folder = project.absoluteSourceRoot
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        let projects = project.specPath == nil ? [PathText.absolute(project.path)]
            : entries.filter { $0.hasSuffix(".xcodeproj") }.map { folder + "/" + $0 }
        let candidates = entries.filter { $0.hasSuffix(".xcworkspace") }.map { "\(folder)/\($0)/xcshareddata/swiftpm/Package.resolved" }
            + projects.map { "\($0)/project.xcworkspace/xcshareddata/swiftpm/Package.resolved" }
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The pins of a Package.resolved of version 1 (`object.pins`, with `repositoryURL`), 2 or 3 (`pins`, with
    /// `identity` and `location`), by package identity.
    /// - Throws: `BuildError.invalidPackageResolved` when the file is not such JSON.
    static func pins(at path: String) throws -> [String: RemotePackage.Pin] {
        guard let bytes = try? Array(Data(contentsOf: URL(fileURLWithPath: path))),
              case .object(let root)? = try? JSONValue.parse(bytes, path: path) else {
            throw BuildError(.invalidPackageResolved, subject: path, detail: "it is not the JSON Xcode writes there (format 1, 2 or 3)")
        }
        var result: [String: RemotePackage.Pin] = [:]
        let pins = root["pins"]?.arrayValue ?? root["object"]?["pins"]?.arrayValue ?? []
        for case .object(let pin) in pins {
            guard let location = pin["location"]?.string ?? pin["repositoryURL"]?.string, case .object(let state)? = pin["state"] else { continue }
            let identity = pin["identity"]?.string ?? RemotePackageReference.identity(of: location)
            result[identity] = RemotePackage.Pin(version: state["version"]?.string, revision: state["revision"]?.string, branch: state["branch"]?.string)
        }
        return result
    }
}

// What becomes of a package SwiftPM cannot fetch or build: one sentence naming it and the products, and what to do.
extension RemotePackage {
    /// Has SwiftPM fetch the packages of `generated` before anything compiles; a package it cannot fetch is left out
    /// and the rest tried again, so that every such package is named at once.
    /// - Throws: `BuildError.unreachablePackage` (exit 69) naming the packages it could not fetch, the products that
    ///   need them and the stand-ins to paste; SwiftPM's output is in `resolve.log` of the package's folder.
    static func resolve(_ generated: GeneratedPackage, withStandInHost: Bool) throws {
        var fetchable = generated.remotePackages
        var failures: [(package: RemotePackage, message: String)] = []
        while !fetchable.isEmpty {
            let left = Set(fetchable.map(\.identity))
            var attempt = generated
            attempt.remotePackages = fetchable
            attempt.modules = generated.modules.map { module in
                var module = module
                module.packageProducts.removeAll { !left.contains($0.package) }
                return module
            }
            try attempt.write(withStandInHost: withStandInHost)
            let output = try Toolchain.run(["package", "resolve", "--package-path", generated.folder], log: generated.folder + "/resolve.log")
            guard output.status != 0 else { break }
            let failure = failedPackage(output.stdout, among: fetchable)
            failures.append(failure)
            fetchable.removeAll { $0.identity == failure.package.identity }
        }
        guard let first = failures.first else { return }
        var detail = first.package.unreachableDetail(first.message, modules: generated.modules)
        let others = failures.dropFirst().map { "'\($0.package.identity)': \(Self.trimmed($0.message))" }
        if !others.isEmpty { detail += "; nor could \(others.joined(separator: "; "))" }
        let products = ProjectBuild.unique(failures.flatMap { $0.package.linkedProducts(by: generated.modules) })
        var advice = first.package.standInAdvice(products)
        // A package that was reached but not at its pin (a repository that is not there at all is no pin's fault).
        if failures.contains(where: { $0.package.pin != nil && !$0.message.contains("Failed to clone") }) {
            let declared = failures.count == 1 ? "requirement the project declares (\(first.package.declaredText))" : "requirements the project declares"
            advice = "build with --unpinned to take the \(declared), or " + advice
        }
        throw BuildError(.unreachablePackage, subject: first.package.identity, detail: detail + "; " + advice)
    }

    /// The package SwiftPM's failed `resolve` names (its first error line, else anywhere in its output, else the
    /// first), and the reason.
    static func failedPackage(_ output: String, among packages: [RemotePackage]) -> (package: RemotePackage, message: String) {
        let lines = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let index = lines.firstIndex { $0.contains("error: ") }
        var message = index.map { String(lines[$0][lines[$0].range(of: "error: ")!.upperBound...]) } ?? "swift package resolve failed"
        // git's reason follows SwiftPM's "Failed to clone repository URL:" on lines of its own.
        if let index, message.hasSuffix(":"), let reason = lines[(index + 1)...].first(where: { $0.hasPrefix("fatal: ") }) {
            message += " " + reason.dropFirst(7)
        }
        let mentions = { (text: String, package: RemotePackage) in text.contains("'\(package.identity)'") || text.contains(package.url) }
        let failed = packages.first { mentions(message, $0) } ?? packages.first { mentions(output, $0) } ?? packages[0]
        return (failed, message)
    }

    static func trimmed(_ message: String) -> String { message.hasSuffix(".") ? String(message.dropLast()) : message }

    /// The products of this package `modules` link.
    func linkedProducts(by modules: [BuildPlan.Module]) -> [String] {
        ProjectBuild.unique(modules.flatMap(\.packageProducts).filter { $0.package == identity }.map(\.name))
    }

    /// What to paste into .lockstep.json to build without them: a stand-in folder for each product.
    func standInAdvice(_ products: [String]) -> String {
        let config = products.map { "\"\($0)\": \"FOLDER\"" }.joined(separator: ", ")
        return "stand in for \(products.count == 1 ? "it" : "them") with a folder of Linux files in .lockstep.json: \"standIns\": {\(config)}"
    }

    /// Why SwiftPM could not fetch this package, without the advice.
    func unreachableDetail(_ message: String, modules: [BuildPlan.Module]) -> String {
        let products = linkedProducts(by: modules)
        let named = products.map { "'\($0)'" }.joined(separator: ", ")
        let source = "(\(url)), which the product\(products.count == 1 ? "" : "s") \(named) come\(products.count == 1 ? "s" : "") from,"
        if pin?.version == nil, let revision = pin?.revision, message.contains(revision) {
            // A copy of the repository (a mirror, this machine's /opt/swift-packages) has commit ids of its own.
            return "\(source) is pinned by Package.resolved to revision \(revision), which the repository SwiftPM reached does not hold (a copy's commit ids differ from the original's): \(Self.trimmed(message))"
        }
        let pinned = pin?.version.map { " at \($0), the version Package.resolved pins" } ?? ""
        return "\(source) could not be fetched\(pinned): \(Self.trimmed(message))"
    }

    /// The fetched package a failed build's output (`swift build`'s) shows failing, with the error line and where:
    /// an error in a file of its checkout (`…/.build/checkouts/NAME/…`), or one naming no file (`<unknown>:0:
    /// missing required module …`) under the line compiling one of its modules.
    static func failure(in output: String, folder: String, among packages: [RemotePackage]) -> (package: RemotePackage, error: String, module: String?)? {
        let lines = output.split(separator: "\n").map(String.init)
        if let line = lines.first(where: { $0.contains("/.build/checkouts/") && $0.contains(": error: ") }) {
            let name = line[line.range(of: "/.build/checkouts/")!.upperBound...].prefix { $0 != "/" }.lowercased()
            if let package = packages.first(where: { $0.identity == name }) { return (package, line, nil) }
        }
        guard let index = lines.firstIndex(where: { $0.contains(": error: ") }) else { return nil }
        for line in lines[..<index].reversed() {
            guard let range = line.range(of: "] Compiling ") ?? line.range(of: "] Emitting module ") else { continue }
            let module = String(line[range.upperBound...].prefix { $0 != " " })
            let checkouts = folder + "/.build/checkouts"
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: checkouts)) ?? []
            guard let entry = entries.first(where: { FileManager.default.fileExists(atPath: "\(checkouts)/\($0)/Sources/\(module)") }) else { return nil }
            return packages.first { $0.identity == entry.lowercased() }.map { ($0, lines[index], module) }
        }
        return nil
    }

    /// Why a bundle did not build when a fetched package's own file did not compile: most packages for iOS need
    /// UIKit, which Linux does not have. The report puts the error's file and line before it; `module` says where an
    /// error that names no file is.
    func notBuildingSentence(module: String?, _ message: String, modules: [BuildPlan.Module]) -> String {
        let products = linkedProducts(by: modules)
        let named = products.map { "'\($0)'" }.joined(separator: ", ")
        return "the package '\(identity)' (\(named)) does not build on Linux\(module.map { " (its module \($0))" } ?? ""): \(message); \(standInAdvice(products))"
    }
}

import BundleKit
import Foundation
import LockstepSystem
import XcodeKit

/// `lockstep build PROJECT`: the plan written as one package per platform, built, and a manifest of the bundles that
/// built (<doc:RunningYourProject>).
public enum ProjectBuild {
    /// What became of one bundle's target: the portability report's row.
    public struct Outcome: Sendable {
        public var bundle: BundleRecord
        public var module: String?
        public var platform: Platform
        /// The built executable, when it built.
        public var executable: String?
        /// Why it did not build: the compiler's first error, or what stopped it before the compiler.
        public var problem: String?
        /// The first Apple symbol (or module) the compiler did not find, when that is why.
        public var missingSymbol: String?
        /// `file:line` of the first error.
        public var location: String?
        public var standIns: [String]
        /// Whether the stand-in app runs in its place (the app's own target did not build).
        public var standInHost: Bool
        /// Its target's resources and those of the modules it imports (a local package's asset catalog), absolute.
        public var resources: [String]
    }

    public struct Report: Sendable {
        public var plan: BuildPlan
        public var outcomes: [Outcome]
        /// The manifest of the bundles that run, for `lockstep up --manifest`.
        public var manifest: String
        public var seconds: Double

        public var builtCount: Int { outcomes.filter { $0.executable != nil }.count }
    }

    /// Writes and builds every platform's package; a target that does not compile is reported, not thrown.
    /// - Throws: `BuildError` when the build folder cannot be written or the toolchain cannot run.
    public static func run(_ plan: BuildPlan, progress: (String) -> Void = { _ in }) throws -> Report {
        let start = Monotonic.now
        let lockstep = try Toolchain.lockstepPackage()
        var outcomes: [Outcome] = []
        for (record, reason) in plan.notBuilt {
            outcomes.append(Outcome(bundle: record, module: nil, platform: record.platform, executable: nil, problem: reason,
                                    missingSymbol: nil, location: nil, standIns: [], standInHost: false, resources: []))
        }
        for platform in plan.platforms {
            let modules = plan.modules.filter { $0.platform == platform }
            let folder = "\(plan.buildFolder)/\(platform.rawValue)"
            let needsHost = modules.contains { $0.bundle?.role == .host }
            // A module stopped before the compiler (and so every executable importing it, `BuildPlan`) is left out
            // of the package, so the rest builds in one go.
            let buildable = modules.filter { module in Self.closure(of: module, in: modules).allSatisfy { $0.blocker == nil } }
            let used = Set(buildable.flatMap(\.packageProducts).map(\.package))
            let remote = plan.remotePackages.filter { used.contains($0.identity) }
            let package = GeneratedPackage(platform: platform, modules: buildable, folder: folder, lockstep: lockstep, remotePackages: remote)
            try package.write(withStandInHost: needsHost)
            let executables = modules.filter(\.isExecutable)
            let first = !FileSystem.exists(folder + "/.build")
            if !remote.isEmpty {
                progress("fetching \(remote.count) package\(remote.count == 1 ? "" : "s") for \(platform.rawValue): \(remote.map(\.identity).joined(separator: ", "))")
                try RemotePackage.resolve(package, withStandInHost: needsHost)
            }
            progress("building \(executables.count) target\(executables.count == 1 ? "" : "s") for \(platform.rawValue) in \(folder)\(first ? " (a first build also compiles Lockstep's modules: minutes)" : "")")
            let binPath = try Toolchain.run(["build", "--package-path", folder, "--show-bin-path"]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            // Everything at once first; only when that fails is each product built alone, to say which did not.
            let all = try Toolchain.run(["build", "--package-path", folder], log: folder + "/build.log")
            for module in executables {
                let imported = Self.closure(of: module, in: modules)
                let blocker = module.blocker
                var outcome = Outcome(bundle: module.bundle!, module: module.name, platform: platform, executable: nil,
                                      problem: blocker, missingSymbol: nil, location: nil,
                                      standIns: Self.unique(imported.flatMap(\.standIns)), standInHost: false,
                                      resources: Self.unique(imported.flatMap(\.resources)))
                if blocker == nil {
                    if all.status != 0 {
                        let single = try Toolchain.run(["build", "--package-path", folder, "--product", module.name],
                                                       log: "\(folder)/build-\(module.name).log")
                        if single.status != 0 {
                            // An error in a fetched package's own files comes first: the package does not build on
                            // Linux, and what fails after it (the modules importing it) follows from that.
                            let failed = RemotePackage.failure(in: single.stdout, folder: folder, among: remote)
                            (outcome.problem, outcome.location, outcome.missingSymbol) = firstError(failed?.error ?? single.stdout)
                            if let failed {
                                if outcome.location?.hasPrefix("<unknown>") == true { outcome.location = nil }
                                outcome.problem = failed.package.notBuildingSentence(module: failed.module, outcome.problem ?? "", modules: imported)
                            }
                        }
                    }
                    if outcome.problem == nil { outcome.executable = "\(binPath)/\(module.name)" }
                }
                outcomes.append(outcome)
            }
            if needsHost, let index = outcomes.firstIndex(where: { $0.bundle.role == .host }), outcomes[index].executable == nil {
                let host = try Toolchain.run(["build", "--package-path", folder, "--product", GeneratedPackage.standInHost],
                                             log: "\(folder)/build-\(GeneratedPackage.standInHost).log")
                if host.status == 0 {
                    outcomes[index].executable = "\(binPath)/\(GeneratedPackage.standInHost)"
                    outcomes[index].standInHost = true
                }
            }
        }
        let ordered = plan.bundleSet.all.compactMap { record in outcomes.first { $0.bundle.name == record.name } }
        let manifest = try writeManifest(plan: plan, outcomes: ordered)
        return Report(plan: plan, outcomes: ordered, manifest: manifest, seconds: Monotonic.now - start)
    }

    /// `module` and every module it imports, directly or not, in a stable order.
    static func closure(of module: BuildPlan.Module, in modules: [BuildPlan.Module]) -> [BuildPlan.Module] {
        var seen: Set<String> = [module.name]
        var queue = [module]
        var result: [BuildPlan.Module] = []
        while !queue.isEmpty {
            let next = queue.removeFirst()
            result.append(next)
            for name in next.dependencies where !seen.contains(name) {
                seen.insert(name)
                if let dependency = modules.first(where: { $0.name == name }) { queue.append(dependency) }
            }
        }
        return result
    }

    /// Each value once, in first-seen order.
    static func unique(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }

    /// The first `error:` line of a build's output, as (sentence, file:line, missing symbol).
    static func firstError(_ output: String) -> (String, String?, String?) {
        for line in output.split(separator: "\n") {
            guard let range = line.range(of: ": error: ") else { continue }
            let location = String(line[..<range.lowerBound])
            let message = String(line[range.upperBound...])
            var symbol: String?
            for marker in ["cannot find '", "no such module '", "cannot find type '"] {
                if let start = message.range(of: marker) {
                    symbol = message[start.upperBound...].prefix { $0 != "'" }.description
                    break
                }
            }
            // file:line without the column.
            let parts = location.split(separator: ":")
            let short = parts.count >= 2 ? parts.dropLast(parts.count >= 3 ? 1 : 0).joined(separator: ":") : location
            return (message, short, symbol)
        }
        let last = output.split(separator: "\n").last { !$0.isEmpty }.map(String.init) ?? "the build failed with no message"
        return (last, nil, nil)
    }

    /// `value` with each `$(NAME)` or `${NAME}` that `check` could not resolve removed: a setting no configuration,
    /// xcconfig or the environment defines is empty when Xcode builds (`DEVELOPMENT_TEAM` of a sample without a
    /// team), and the values `check` compares keep it visible as written.
    package static func unsetAsEmpty(_ value: String) -> String {
        var result = ""
        var rest = Substring(value)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            guard let open = after.first, open == "(" || open == "{",
                  let close = after.firstIndex(of: open == "(" ? ")" : "}") else {
                result.append("$")
                rest = after
                continue
            }
            rest = after[after.index(after: close)...]
        }
        return result + rest
    }

    /// The manifest of the app and the bundles that built, with the values `check` resolved.
    static func writeManifest(plan: BuildPlan, outcomes: [Outcome]) throws -> String {
        func entry(_ outcome: Outcome) -> JSONValue {
            let record = outcome.bundle
            let app = plan.bundleSet.app
            var fields: [String: JSONValue] = [
                "name": .string(record.name), "role": .string(record.role.rawValue),
                "bundleIdentifier": .string(unsetAsEmpty(record.bundleIdentifier ?? app.bundleIdentifier.map { "\($0).\(record.name)" } ?? record.name)),
                // A version the project leaves unresolved is the app's: what a build from it would get.
                "shortVersion": .string(unsetAsEmpty(record.shortVersion ?? app.shortVersion ?? "1.0")),
                "buildVersion": .string(unsetAsEmpty(record.buildVersion ?? app.buildVersion ?? "1")),
                "executable": .string(outcome.executable ?? ""),
                "appGroups": .array(record.appGroups.map { .string(unsetAsEmpty($0)) }),
            ]
            if let point = record.extensionPoint { fields["extensionPoint"] = .string(point) }
            if !outcome.resources.isEmpty { fields["resources"] = .array(outcome.resources.map(JSONValue.string)) }
            if let companion = record.companionAppBundleIdentifier { fields["companionAppBundleIdentifier"] = .string(companion) }
            return .object(fields)
        }
        let running = outcomes.filter { $0.executable != nil }
        guard let app = running.first(where: { $0.bundle.role == .host }) else {
            throw BuildError(.noRunnableTarget, subject: plan.project, detail: "neither the app's target nor the stand-in app built (see \(plan.buildFolder))")
        }
        let manifest = JSONValue.object([
            "manifestVersion": .integer(1),
            "app": entry(app),
            "embedded": .array(running.filter { $0.bundle.role != .host }.map(entry)),
        ])
        let path = plan.buildFolder + "/lockstep.json"
        do {
            try AtomicFile.write(manifest.canonicalText + "\n", to: path)
        } catch {
            throw BuildError(.unwritable, subject: plan.buildFolder, detail: "\(error)")
        }
        return path
    }
}

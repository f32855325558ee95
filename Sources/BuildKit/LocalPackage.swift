import BundleKit
import Foundation
import XcodeKit

/// A local Swift package the project refers to, as `swift package dump-package` describes it: its products and the
/// Swift files of each library target. Its files are compiled into the generated package like the project's own,
/// with the platform conditions of the bundle that imports them.
struct LocalPackage: Sendable {
    struct Target: Sendable {
        var name: String
        /// Its sources folder: what a stand-in's `"Target/Sub/Folder"` is relative to.
        var folder: String
        var swiftFiles: [String]
        /// Its other files: asset catalogs, strings, what `Bundle.module` finds on a device.
        var resources: [String]
        /// Targets of this package and products of others, by name.
        var dependencies: [String]
        /// The package identity each product of another package comes from (`.product(name:package:)`).
        var productPackages: [String: String]
        var defines: [String]
    }

    var name: String
    var path: String
    /// Each library product's targets.
    var products: [String: [String]]
    var targets: [Target]
    /// The packages it fetches from a URL (`.package(url:…)`), each with the products its targets link.
    var remotePackages: [RemotePackageReference]
    /// The language mode of its tools version (6 from swift-tools-version 6.0 on) unless it names its own.
    var languageMode: String

    /// Reads the package at `path` (a folder holding Package.swift).
    /// - Throws: `BuildError.invalidPackage` with the first line `swift package` printed.
    static func load(_ path: String) throws -> LocalPackage {
        let output = try Toolchain.run(["package", "dump-package", "--package-path", path])
        guard output.status == 0, let json = try? JSONValue.parse(Array(output.stdout.utf8), path: path + "/Package.swift"),
              case .object(let root) = json else {
            let first = output.stderr.split(separator: "\n").first { $0.contains("error") } ?? output.stderr.split(separator: "\n").first ?? "no output"
            throw BuildError(.invalidPackage, subject: path, detail: String(first))
        }
        let name = root["name"]?.string ?? PathText.lastComponent(of: path)
        var products: [String: [String]] = [:]
        for case .object(let product) in root["products"]?.arrayValue ?? [] {
            guard let productName = product["name"]?.string else { continue }
            products[productName] = (product["targets"]?.arrayValue ?? []).compactMap(\.string)
        }
        var targets: [Target] = []
        for case .object(let target) in root["targets"]?.arrayValue ?? [] {
            guard let targetName = target["name"]?.string, target["type"]?.string == "regular" else { continue }
            let folder = PathText.join(path, target["path"]?.string ?? "Sources/\(targetName)")
            var excluded = Set((target["exclude"]?.arrayValue ?? []).compactMap(\.string))
            // A target whose folder is the package's own (`path: "."`, as Backyard Birds' data package has) does not
            // compile the manifest, as SwiftPM does not.
            if folder == path || [".", "./"].contains(target["path"]?.string ?? "") {
                excluded.insert("Package.swift")
            }
            var inputs = TargetBuildInputs()
            if let sources = target["sources"]?.arrayValue {
                for source in sources.compactMap(\.string) { inputs.add(folder: PathText.join(folder, source)) }
            } else {
                inputs.add(folder: folder, excluded: excluded)
            }
            var dependencies: [String] = []
            var productPackages: [String: String] = [:]
            for case .object(let dependency) in target["dependencies"]?.arrayValue ?? [] {
                for kind in ["byName", "target", "product"] {
                    if let first = dependency[kind]?.arrayValue?.first?.string { dependencies.append(first) }
                }
                if let product = dependency["product"]?.arrayValue, let name = product.first?.string, product.count > 1, let package = product[1].string {
                    productPackages[name] = package.lowercased()
                }
            }
            var defines: [String] = []
            for case .object(let setting) in target["settings"]?.arrayValue ?? [] {
                guard setting["tool"]?.string == "swift", case .object(let kind)? = setting["kind"],
                      case .object(let define)? = kind["define"], let name = define["_0"]?.string else { continue }
                defines.append(name)
            }
            targets.append(Target(name: targetName, folder: folder, swiftFiles: inputs.swiftFiles, resources: inputs.resources, dependencies: dependencies,
                                  productPackages: productPackages, defines: defines))
        }
        let tools = root["toolsVersion"]?["_version"]?.string ?? "5"
        var mode = tools.hasPrefix("6") ? "6" : "5"
        if let declared = (root["swiftLanguageModes"] ?? root["swiftLanguageVersions"])?.arrayValue?.first?.string {
            mode = declared.hasPrefix("6") ? "6" : declared.hasPrefix("4") ? "4" : "5"
        }
        return LocalPackage(name: name, path: path, products: products, targets: targets,
                            remotePackages: remotePackages(root["dependencies"]?.arrayValue ?? [], targets: targets), languageMode: mode)
    }

    /// The manifest's `.package(url:…)` dependencies as `dump-package` gives them (`sourceControl`, its location
    /// `remote` or, for a git repository on disk, `local`), each with the products the targets link from it.
    static func remotePackages(_ dependencies: [JSONValue], targets: [Target]) -> [RemotePackageReference] {
        var result: [RemotePackageReference] = []
        for case .object(let entry) in dependencies {
            guard case .object(let source)? = entry["sourceControl"]?.arrayValue?.first, let location = source["location"] else { continue }
            let remote = location["remote"]?.arrayValue?.first
            guard let url = remote?["urlString"]?.string ?? remote?.string ?? location["local"]?.arrayValue?.first?.string else { continue }
            let rule = source["requirement"]
            let requirement: RemotePackageReference.Requirement
            if let range = rule?["range"]?.arrayValue?.first, let low = range["lowerBound"]?.string, let high = range["upperBound"]?.string {
                requirement = .range(low, high)
            } else if let version = rule?["exact"]?.arrayValue?.first?.string {
                requirement = .exact(version)
            } else if let branch = rule?["branch"]?.arrayValue?.first?.string {
                requirement = .branch(branch)
            } else if let revision = rule?["revision"]?.arrayValue?.first?.string {
                requirement = .revision(revision)
            } else {
                continue
            }
            let identity = source["identity"]?.string ?? RemotePackageReference.identity(of: url)
            let products = targets.flatMap { target in target.productPackages.filter { $0.value == identity }.keys.sorted() }
            result.append(RemotePackageReference(url: url, requirement: requirement, products: ProjectBuild.unique(products)))
        }
        return result
    }
}

extension JSONValue {
    var arrayValue: [JSONValue]? { if case .array(let items) = self { return items } else { return nil } }
    var string: String? { if case .string(let text) = self { return text } else { return nil } }
}

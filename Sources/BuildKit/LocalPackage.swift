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
        var defines: [String]
    }

    var name: String
    var path: String
    /// Each library product's targets.
    var products: [String: [String]]
    var targets: [Target]
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
            for case .object(let dependency) in target["dependencies"]?.arrayValue ?? [] {
                for kind in ["byName", "target", "product"] {
                    if let first = dependency[kind]?.arrayValue?.first?.string { dependencies.append(first) }
                }
            }
            var defines: [String] = []
            for case .object(let setting) in target["settings"]?.arrayValue ?? [] {
                guard setting["tool"]?.string == "swift", case .object(let kind)? = setting["kind"],
                      case .object(let define)? = kind["define"], let name = define["_0"]?.string else { continue }
                defines.append(name)
            }
            targets.append(Target(name: targetName, folder: folder, swiftFiles: inputs.swiftFiles, resources: inputs.resources, dependencies: dependencies, defines: defines))
        }
        let tools = root["toolsVersion"]?["_version"]?.string ?? "5"
        var mode = tools.hasPrefix("6") ? "6" : "5"
        if let declared = (root["swiftLanguageModes"] ?? root["swiftLanguageVersions"])?.arrayValue?.first?.string {
            mode = declared.hasPrefix("6") ? "6" : declared.hasPrefix("4") ? "4" : "5"
        }
        return LocalPackage(name: name, path: path, products: products, targets: targets, languageMode: mode)
    }
}

extension JSONValue {
    var arrayValue: [JSONValue]? { if case .array(let items) = self { return items } else { return nil } }
    var string: String? { if case .string(let text) = self { return text } else { return nil } }
}

import BundleKit
import Foundation
import XcodeKit

// What `lockstep build` reads of a spec's targets: their `sources` as XcodeGen builds them.
extension SpecReader {
    /// What `lockstep build` compiles of `target`: the files of its `sources`, and the products of its `- package:`
    /// dependencies (a package's own name when it names no `product:`, as XcodeGen does).
    func buildInputs(_ target: SpecTarget) -> TargetBuildInputs {
        var inputs = TargetBuildInputs()
        let list = target.node["sources"]
        for item in list?.sequence ?? list.map({ [$0] }) ?? [] {
            guard let path = item.string ?? item["path"]?.string else { continue }
            let absolute = PathText.join(PathText.absolute(folder), path)
            // XcodeGen: `buildPhase: none` builds nothing; an `optional` path may be missing; `excludes` and
            // `includes` are globs relative to the path.
            if item["buildPhase"]?.string == "none" { continue }
            if item["optional"].flatMap(SpecNode.bool) == true && !FileManager.default.fileExists(atPath: absolute) { continue }
            let excludes = (item["excludes"]?.sequence ?? []).compactMap(\.string)
            let includes = (item["includes"]?.sequence ?? []).compactMap(\.string)
            if excludes.isEmpty && includes.isEmpty {
                inputs.add(folder: absolute)
            } else {
                inputs.add(folder: absolute) { relative in
                    excludes.contains { SpecProject.glob($0, matches: relative) }
                }
                if !includes.isEmpty {
                    inputs.swiftFiles.removeAll { file in
                        let relative = String(file.dropFirst(absolute.count + 1))
                        return !includes.contains { SpecProject.glob($0, matches: relative) }
                    }
                }
            }
        }
        for item in target.node["dependencies"]?.sequence ?? [] {
            guard let package = item["package"]?.string else { continue }
            inputs.packageProducts.append(item["product"]?.string ?? package)
        }
        return inputs
    }

    /// The spec's `packages:` fetched from a URL (`url:`, or `github: owner/name`), each with the products its
    /// targets' `- package:` dependencies link.
    func remotePackages() -> [RemotePackageReference] {
        (root["packages"]?.pairs ?? []).compactMap { name, node in
            guard let url = node["url"]?.string ?? node["github"]?.string.map({ "https://github.com/\($0)" }) else { return nil }
            var products: [String] = []
            for target in targets {
                for item in target.node["dependencies"]?.sequence ?? [] where item["package"]?.string == name {
                    let product = item["product"]?.string ?? name
                    if !products.contains(product) { products.append(product) }
                }
            }
            // XcodeGen refuses a package without a version rule; without one, any version.
            let requirement = RemotePackageReference.specRequirement { node[$0]?.string } ?? .range("0.0.0", "100000.0.0")
            return RemotePackageReference(url: url, requirement: requirement, products: products)
        }
    }
}

extension SpecProject {
    /// Whether an XcodeGen glob matches a path relative to its source folder: `*` within a path component, `**/`
    /// any number of folders (none included), `?` one character.
    package static func glob(_ pattern: String, matches path: String) -> Bool {
        func match(_ pattern: Substring, _ path: Substring) -> Bool {
            if pattern.hasPrefix("**/") {
                let rest = pattern.dropFirst(3)
                if match(rest, path) { return true }
                var remaining = path
                while let slash = remaining.firstIndex(of: "/") {
                    remaining = remaining[remaining.index(after: slash)...]
                    if match(rest, remaining) { return true }
                }
                return false
            }
            guard let first = pattern.first else { return path.isEmpty }
            switch first {
            case "*":
                if pattern.hasPrefix("**") { return match(pattern.dropFirst(), path) || (!path.isEmpty && match(pattern, path.dropFirst())) }
                let rest = pattern.dropFirst()
                if match(rest, path) { return true }
                guard let next = path.first, next != "/" else { return false }
                return match(pattern, path.dropFirst())
            case "?":
                guard let next = path.first, next != "/" else { return false }
                return match(pattern.dropFirst(), path.dropFirst())
            default:
                guard path.first == first else { return false }
                return match(pattern.dropFirst(), path.dropFirst())
            }
        }
        // A pattern naming a folder leaves out everything below it.
        return match(Substring(pattern), Substring(path)) || (!pattern.hasSuffix("/") && match(Substring(pattern + "/**"), Substring(path)))
    }
}

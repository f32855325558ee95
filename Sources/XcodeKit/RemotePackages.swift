import BundleKit

/// A Swift package a project has Xcode fetch from a URL: an `XCRemoteSwiftPackageReference`, a spec's `packages:`
/// entry with a `url:` (or `github:`), or a local package's `.package(url:…)`. `lockstep build` hands it to SwiftPM
/// as a dependency of the generated package (<doc:RunningYourProject> "Packages fetched from a URL").
package struct RemotePackageReference: Sendable, Equatable {
    /// The versions the project accepts, as Xcode's package editor (and SwiftPM's manifest) writes them.
    package enum Requirement: Sendable, Equatable {
        case upToNextMajor(String)
        case upToNextMinor(String)
        case exact(String)
        /// From the first version up to, not including, the second.
        case range(String, String)
        case branch(String)
        case revision(String)
    }

    package var url: String
    package var requirement: Requirement
    /// The products of it the project's targets link, by name.
    package var products: [String]

    package init(url: String, requirement: Requirement, products: [String] = []) {
        self.url = url
        self.requirement = requirement
        self.products = products
    }

    /// The identity SwiftPM derives from the URL, which `.product(name:package:)` names: its last path component
    /// without `.git`, in lower case (`https://github.com/apple/swift-collections.git` → `swift-collections`).
    package var identity: String { Self.identity(of: url) }

    package static func identity(of url: String) -> String {
        var last = Substring(url)
        while last.hasSuffix("/") { last = last.dropLast() }
        if let slash = last.lastIndex(where: { $0 == "/" || $0 == ":" }) { last = last[last.index(after: slash)...] }
        if last.hasSuffix(".git") { last = last.dropLast(4) }
        return last.lowercased()
    }

    /// A requirement as a pbxproj's `requirement = { kind = …; }` gives it; nil for a kind Xcode does not write.
    package static func requirement(kind: String?, _ field: (String) -> String?) -> Requirement? {
        switch kind {
        case "upToNextMajorVersion": field("minimumVersion").map(Requirement.upToNextMajor)
        case "upToNextMinorVersion": field("minimumVersion").map(Requirement.upToNextMinor)
        case "exactVersion": field("version").map(Requirement.exact)
        case "versionRange":
            field("minimumVersion").flatMap { low in field("maximumVersion").map { Requirement.range(low, $0) } }
        case "branch": field("branch").map(Requirement.branch)
        case "revision": field("revision").map(Requirement.revision)
        default: nil
        }
    }

    /// A requirement as an XcodeGen spec's package entry gives it (`from`, `majorVersion`, `minorVersion`,
    /// `exactVersion` or `version`, `minVersion` with `maxVersion`, `branch`, `revision`).
    package static func specRequirement(_ field: (String) -> String?) -> Requirement? {
        if let version = field("from") ?? field("majorVersion") { return .upToNextMajor(version) }
        if let version = field("minorVersion") { return .upToNextMinor(version) }
        if let version = field("exactVersion") ?? field("version") { return .exact(version) }
        if let low = field("minVersion"), let high = field("maxVersion") { return .range(low, high) }
        if let branch = field("branch") { return .branch(branch) }
        if let revision = field("revision") { return .revision(revision) }
        return nil
    }
}

extension XcodeProject {
    /// The packages the project fetches from a URL, each with the products its targets link (through
    /// `packageProductDependencies` or a Frameworks phase's `productRef`), in the project's order.
    /// - Throws: `BundleError` when the pbxproj cannot be read again (it was read once already).
    package func remotePackages() throws(BundleError) -> [RemotePackageReference] {
        if specPath != nil { return specRemotePackages }
        let document = try Self.document(bytes, path: path)
        guard let objects = document.root["objects"]?.dictionary.map(ObjectIndex.init),
              let rootID = document.root["rootObject"]?.string, let root = objects[rootID]?.dictionary else { return [] }
        var references: [(id: String, package: RemotePackageReference)] = []
        for id in (root["packageReferences"]?.array ?? []).compactMap(\.string) {
            guard let object = objects[id]?.dictionary, object["isa"]?.string == "XCRemoteSwiftPackageReference",
                  let url = object["repositoryURL"]?.string else { continue }
            let requirement = object["requirement"]?.dictionary
            // Xcode always writes a requirement; without one, any version.
            let declared = RemotePackageReference.requirement(kind: requirement?["kind"]?.string) { requirement?[$0]?.string }
            references.append((id, RemotePackageReference(url: url, requirement: declared ?? .range("0.0.0", "100000.0.0"))))
        }
        for target in targets {
            guard let object = objects[target.id]?.dictionary else { continue }
            var products = (object["packageProductDependencies"]?.array ?? []).compactMap(\.string)
            for phase in (object["buildPhases"]?.array ?? []).compactMap(\.string) where objects[phase]?.dictionary?["isa"]?.string == "PBXFrameworksBuildPhase" {
                products += (objects[phase]?.dictionary?["files"]?.array ?? []).compactMap { objects[$0.string ?? ""]?.dictionary?["productRef"]?.string }
            }
            for product in products {
                guard let dependency = objects[product]?.dictionary, let name = dependency["productName"]?.string,
                      let index = references.firstIndex(where: { $0.id == dependency["package"]?.string }),
                      !references[index].package.products.contains(name) else { continue }
                references[index].package.products.append(name)
            }
        }
        return references.map(\.package)
    }
}

import BundleKit

/// Where a `PBXCopyFilesBuildPhase` copies its files, and so where a target it copies is embedded
/// (<doc:ReadingProjects> "Embedded").
///
/// Xcode up to 16 writes the destination folder as a number, `dstSubfolderSpec = 13;`. Xcode 26 (objectVersion 90)
/// writes a name instead, `dstSubfolder = PlugIns;`, and no number: the names are those tuist/XcodeProj reads
/// (`PBXCopyFilesBuildPhase.DstSubfolder`, its pull request 1038) and CocoaPods/Xcodeproj's pull request 1051 adds.
/// `Product` is the products directory (16), where `dstPath` names the `Watch` or `AppClips` folder of the app.
enum CopyPhaseDestination {
    /// The folders that can hold an embedded bundle, whichever way the phase names them.
    enum Folder: Equatable {
        /// `dstSubfolderSpec = 13`, `dstSubfolder = PlugIns`.
        case plugIns
        /// `dstSubfolderSpec = 16`, `dstSubfolder = Product` (or `ProductsDirectory`): a path inside the built
        /// products folder, such as `$(CONTENTS_FOLDER_PATH)/Watch`.
        case products
        /// `dstSubfolderSpec = 1`, `dstSubfolder = Wrapper` (or `Contents`): a path inside the bundle itself.
        case wrapper
        /// Any other folder (Resources, Frameworks, an absolute path …).
        case other
    }

    /// The folder a phase copies into, from `dstSubfolderSpec` (Xcode 16 and earlier) or `dstSubfolder` (Xcode 26).
    static func folder(spec: String?, subfolder: String?) -> Folder {
        switch spec {
        case "13": return .plugIns
        case "16": return .products
        case "1": return .wrapper
        case .some: return .other
        case nil: break
        }
        switch subfolder {
        case "PlugIns": return .plugIns
        case "Product", "ProductsDirectory": return .products
        case "Wrapper", "Contents": return .wrapper
        default: return .other
        }
    }

    /// Where a bundle a phase copies is embedded, or nil when the phase embeds no app extension, watch app or App
    /// Clip there.
    /// - Parameter destination: the phase's `dstPath`.
    static func location(folder: Folder, destination: String) -> EmbedLocation? {
        // <doc:ReadingProjects> "Platforms": macOS system extensions (Contents/Library/SystemExtensions, whose path
        // setting ends like the ExtensionKit one) are no app extensions.
        if destination.contains("SYSTEM_EXTENSIONS_FOLDER_PATH") || destination.contains("SystemExtensions") { return nil }
        if folder == .plugIns { return .plugIns }
        if folder == .products && destination.contains("Watch") { return .watch }
        if destination.contains("EXTENSIONS_FOLDER_PATH") || destination.hasSuffix("Extensions") { return .extensions }
        // Xcode's "Embed App Clips" phase: $(CONTENTS_FOLDER_PATH)/AppClips.
        if folder == .products && destination.hasSuffix("AppClips") { return .appClips }
        return nil
    }
}

/// A platform a `PBXBuildFile`'s `platformFilter` or `platformFilters` names: the build of a multiplatform target
/// that copies the file (<doc:ReadingProjects> "Embedded").
package enum PlatformFilter: String, CaseIterable, Sendable {
    case ios, maccatalyst, macos, tvos, watchos, xros, driverkit

    /// The platform whose rules a bundle built for this filter is checked with: a Mac Catalyst build is a Mac app.
    package var platform: Platform? {
        switch self {
        case .ios: .iOS
        case .maccatalyst, .macos: .macOS
        case .tvos: .tvOS
        case .watchos: .watchOS
        case .xros: .visionOS
        case .driverkit: nil
        }
    }

    /// The filter that names a target's own build for `platform` (an iOS target's Catalyst build aside).
    package init(_ platform: Platform) {
        switch platform {
        case .iOS: self = .ios
        case .macOS: self = .macos
        case .tvOS: self = .tvos
        case .watchOS: self = .watchos
        case .visionOS: self = .xros
        }
    }

    /// The filters of a build file: unknown names are kept out (a filter Lockstep does not know embeds nothing it
    /// checks), `visionos` is Xcode's other name for `xros`.
    static func parse(_ names: [String]) -> [PlatformFilter] {
        names.compactMap { PlatformFilter(rawValue: $0 == "visionos" ? "xros" : $0.lowercased()) }
    }
}

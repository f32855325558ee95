import AppGroupKit
import Foundation
import LockstepRuntime

/// iOS's `URL.documentsDirectory`, `.applicationSupportDirectory` and `.cachesDirectory` (absent from Foundation on
/// Linux): folders of the bundle's own private container, as the sandbox gives them to the simulated process this
/// code runs in (rule `container.private`), created with the container's conventional layout. `URL.temporaryDirectory`
/// is Foundation's own: `TMPDIR`, which every simulated process has as `<its container>/tmp/`.
///
/// Code that runs in no simulated process (a plain `swift test` of a shared module) gets Foundation's folders for the
/// user, from `FileManager.urls(for:in:)`.
extension URL {
    /// `<container>/Documents`.
    public static var documentsDirectory: URL { privateContainerFolder("Documents", else: .documentDirectory) }
    /// `<container>/Library/Application Support`.
    public static var applicationSupportDirectory: URL {
        privateContainerFolder("Library/Application Support", else: .applicationSupportDirectory)
    }
    /// `<container>/Library/Caches`.
    public static var cachesDirectory: URL { privateContainerFolder("Library/Caches", else: .cachesDirectory) }

    private static func privateContainerFolder(_ relativePath: String, else directory: FileManager.SearchPathDirectory) -> URL {
        if let sandbox = try? SimulatedProcess.current?.sandbox(), let container = try? sandbox.privateContainer() {
            return URL(fileURLWithPath: container.path + "/" + relativePath, isDirectory: true)
        }
        return FileManager.default.urls(for: directory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
    }
}

extension String {
    /// The comparator Apple's Foundation names `String.StandardComparator.localizedStandard`: the order of the
    /// Finder and the Files app (`localizedStandardCompare(_:)`: case- and diacritic-insensitive, digits as numbers,
    /// so "a2" comes before "a10"). Foundation on Linux has `localizedStandardCompare(_:)` but not the comparator, and
    /// its `StandardComparator` cannot be made with these options from outside, so this is a comparator of its own
    /// that `sorted(using:)` and `KeyPathComparator(\.name, comparator: .localizedStandard)` take alike.
    public struct LocalizedStandardComparator: SortComparator, Codable, Hashable, Sendable {
        public var order: SortOrder

        public init(order: SortOrder = .forward) { self.order = order }

        public func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
            let result = lhs.localizedStandardCompare(rhs)
            guard order == .reverse else { return result }
            switch result {
            case .orderedAscending: return .orderedDescending
            case .orderedDescending: return .orderedAscending
            case .orderedSame: return .orderedSame
            }
        }
    }
}

extension String.StandardComparator {
    /// `String.StandardComparator.localizedStandard`, as Apple's Foundation spells it.
    public static var localizedStandard: String.LocalizedStandardComparator { String.LocalizedStandardComparator() }
}

extension SortComparator where Self == String.LocalizedStandardComparator {
    /// `.localizedStandard` where a comparator of strings is expected (`sorted(using: .localizedStandard)`).
    public static var localizedStandard: Self { Self() }
}

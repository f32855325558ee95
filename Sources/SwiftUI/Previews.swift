import LockstepSystem
import Synchronization

/// Creates a preview of a SwiftUI view: `#Preview { ContentView() }`, `#Preview("Name") { … }`. On Linux the
/// preview builds as in Xcode, and a widget executable's `previews` command draws it (see WidgetKit).
@freestanding(declaration)
public macro Preview(_ name: String? = nil, @ViewBuilder body: @escaping @MainActor () -> any View) =
    #externalMacro(module: "LockstepMacros", type: "PreviewMacro")

/// A preview of a SwiftUI view, with traits: `#Preview("Name", traits: .sizeThatFitsLayout) { … }`.
@freestanding(declaration)
public macro Preview(_ name: String? = nil, traits: PreviewTrait<Preview.ViewTraits>, _ additionalTraits: PreviewTrait<Preview.ViewTraits>...,
                     @ViewBuilder body: @escaping @MainActor () -> any View) =
    #externalMacro(module: "LockstepMacros", type: "PreviewMacro")

/// The namespace of preview traits' kinds.
public enum Preview {
    /// Traits of a view preview.
    public enum ViewTraits {}
}

/// A characteristic of a preview: its layout or orientation.
public struct PreviewTrait<T>: Sendable {
    /// The size a view preview is drawn at; nil: the reference iPhone's screen.
    let size: CGSize?
}

extension PreviewTrait where T == Preview.ViewTraits {
    /// The view at the size it chooses (drawn here on the reference iPhone's screen, as `portrait`).
    public static var sizeThatFitsLayout: PreviewTrait { PreviewTrait(size: nil) }
    public static func fixedLayout(width: CGFloat, height: CGFloat) -> PreviewTrait { PreviewTrait(size: CGSize(width: width, height: height)) }
    public static var portrait: PreviewTrait { PreviewTrait(size: nil) }
    public static var landscapeLeft: PreviewTrait { PreviewTrait(size: CGSize(width: 852, height: 393)) }
    public static var landscapeRight: PreviewTrait { PreviewTrait(size: CGSize(width: 852, height: 393)) }
}

/// What a `#Preview` expands to: its name and what to draw. A view preview holds its view; frameworks add other
/// kinds (WidgetKit's widget previews) through `payload`.
@MainActor
public struct _LockstepPreview {
    public let name: String?
    /// What the preview shows: a `ViewPreview`, or another framework's kind.
    public let payload: Any

    public init(name: String?, payload: Any) {
        self.name = name
        self.payload = payload
    }

    public init(_ name: String? = nil, @ViewBuilder body: @escaping @MainActor () -> any View) {
        self.init(name: name, payload: ViewPreview(size: nil, body: body))
    }

    public init(_ name: String? = nil, traits: PreviewTrait<Preview.ViewTraits>, _ additionalTraits: PreviewTrait<Preview.ViewTraits>...,
                @ViewBuilder body: @escaping @MainActor () -> any View) {
        let size = ([traits] + additionalTraits).compactMap(\.size).last
        self.init(name: name, payload: ViewPreview(size: size, body: body))
    }
}

/// A view preview: drawn at `size` (nil: the reference iPhone's screen, 393 × 852 points).
@MainActor
package struct ViewPreview {
    package let size: CGSize?
    package let body: @MainActor () -> any View
}

/// Every `#Preview` linked into this executable, found in its `lockstep_previews` section.
public enum _LockstepPreviews {
    /// A preview's maker and where it is written.
    package struct Entry: Sendable {
        package let make: @MainActor @Sendable () -> _LockstepPreview
        package let fileID: String
        package let line: Int
    }
    private static let registered = Mutex<[Entry]?>(nil)

    /// Called by a preview's section record.
    public static func register(_ make: @escaping @MainActor @Sendable () -> _LockstepPreview, fileID: String, line: Int) {
        registered.withLock { $0?.append(Entry(make: make, fileID: fileID, line: line)) }
    }

    /// The previews, in the order of their files and lines.
    package static func all() -> [Entry] {
        let loaded = registered.withLock { registered in
            defer { if registered == nil { registered = [] } }
            return registered != nil
        }
        if !loaded { LinkerSection.callPreviewRecords() }
        return registered.withLock { $0 ?? [] }.sorted { ($0.fileID, $0.line) < ($1.fileID, $1.line) }
    }
}

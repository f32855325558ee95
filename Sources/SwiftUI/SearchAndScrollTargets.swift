// What a screen does only once a person touches it: searching, hit-testing shapes, hovering and scroll snapping. A first frame
// is drawn before any touch, so none of these changes the picture: the search field lives in the navigation bar's
// drawer (bars are not drawn, see Toolbar.swift) and its suggestions show only while a person searches; a content
// shape only decides where taps land; a scroll target behavior only decides where a scroll comes to rest, and a
// first frame is at rest at the start.

/// Where a search field goes.
public struct SearchFieldPlacement: Hashable, Sendable {
    let name: String
    public static let automatic = SearchFieldPlacement(name: "automatic")
    public static let toolbar = SearchFieldPlacement(name: "toolbar")
    public static let sidebar = SearchFieldPlacement(name: "sidebar")
    public static let navigationBarDrawer = SearchFieldPlacement(name: "navigationBarDrawer")
    public static func navigationBarDrawer(displayMode: NavigationBarDrawerDisplayMode) -> SearchFieldPlacement {
        SearchFieldPlacement(name: "navigationBarDrawer")
    }

    /// Whether the navigation bar's drawer shows the field always or once a person scrolls.
    public enum NavigationBarDrawerDisplayMode: Hashable, Sendable { case automatic, always }
}

/// What a content shape is for.
public struct ContentShapeKinds: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let interaction = ContentShapeKinds(rawValue: 1 << 0)
    public static let dragPreview = ContentShapeKinds(rawValue: 1 << 1)
    public static let contextMenuPreview = ContentShapeKinds(rawValue: 1 << 2)
    public static let hoverEffect = ContentShapeKinds(rawValue: 1 << 3)
    public static let accessibility = ContentShapeKinds(rawValue: 1 << 4)
}

/// Where a scroll comes to rest.
public protocol ScrollTargetBehavior {}
public struct ViewAlignedScrollTargetBehavior: ScrollTargetBehavior {
    /// Whether one swipe may scroll past several views.
    public enum LimitBehavior: Hashable, Sendable { case automatic, always, never }
    public init(limitBehavior: LimitBehavior = .automatic) {}
}
public struct PagingScrollTargetBehavior: ScrollTargetBehavior { public init() {} }
extension ScrollTargetBehavior where Self == ViewAlignedScrollTargetBehavior {
    public static var viewAligned: ViewAlignedScrollTargetBehavior { ViewAlignedScrollTargetBehavior() }
    public static func viewAligned(limitBehavior: ViewAlignedScrollTargetBehavior.LimitBehavior) -> ViewAlignedScrollTargetBehavior {
        ViewAlignedScrollTargetBehavior(limitBehavior: limitBehavior)
    }
}
extension ScrollTargetBehavior where Self == PagingScrollTargetBehavior {
    public static var paging: PagingScrollTargetBehavior { PagingScrollTargetBehavior() }
}

/// How a view reacts when a pointer hovers over it.
public struct HoverEffect: Sendable {
    let name: String
    public static let automatic = HoverEffect(name: "automatic")
    public static let highlight = HoverEffect(name: "highlight")
    public static let lift = HoverEffect(name: "lift")
}

nonisolated extension View {
    /// The effect a pointer's hovering shows (an iPad's trackpad): an iPhone has no pointer, and nothing hovers here.
    public func hoverEffect(_ effect: HoverEffect = .automatic, isEnabled: Bool = true) -> some View { self }

    /// A search field in the navigation bar's drawer: not drawn, as bars are not.
    public func searchable(text: Binding<String>, placement: SearchFieldPlacement = .automatic, prompt: Text? = nil) -> some View { self }
    public func searchable(text: Binding<String>, placement: SearchFieldPlacement = .automatic, prompt: LocalizedStringKey) -> some View { self }
    @_disfavoredOverload
    public func searchable<S: StringProtocol>(text: Binding<String>, placement: SearchFieldPlacement = .automatic, prompt: S) -> some View { self }
    public func searchable(text: Binding<String>, isPresented: Binding<Bool>, placement: SearchFieldPlacement = .automatic,
                           prompt: Text? = nil) -> some View { self }
    /// Suggestions shown while a person searches: never in a first frame.
    public func searchSuggestions<S: View>(@ViewBuilder _ suggestions: () -> S) -> some View { self }
    /// The text a suggestion completes the search field with, once a person picks it.
    public func searchCompletion(_ completion: String) -> some View { self }

    /// The shape taps land in: it decides hit-testing, not drawing.
    public func contentShape<S: Shape>(_ shape: S, eoFill: Bool = false) -> some View { self }
    public func contentShape<S: Shape>(_ kind: ContentShapeKinds, _ shape: S, eoFill: Bool = false) -> some View { self }

    /// Marks the views a scroll view comes to rest on: a first frame rests at the start.
    public func scrollTargetLayout(isEnabled: Bool = true) -> some View { self }
    /// Where the scroll views inside come to rest: a first frame rests at the start.
    public func scrollTargetBehavior(_ behavior: some ScrollTargetBehavior) -> some View { self }
}

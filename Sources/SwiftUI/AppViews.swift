// The app-side views a team's shared UI package holds beside what its widget draws (lists, navigation, scroll
// effects). A widget or a headless app draws them once, as a first frame shows them: nothing is tapped, swiped,
// scrolled or navigated.

/// A list: its rows one under another, on the grouped background; its sections drawn as an inset-grouped list's cards.
public struct List<SelectionValue: Hashable, Content: View>: View {
    let content: Content

    public init(@ViewBuilder content: () -> Content) where SelectionValue == Never {
        self.content = content()
    }

    public init(selection: Binding<SelectionValue?>?, @ViewBuilder content: () -> Content) {
        self.content = content()
    }

    public var body: some View { GroupedList(content: content) }
}

extension List where SelectionValue == Never {
    public init<Data: RandomAccessCollection, RowContent: View>(_ data: Data, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent)
    where Content == ForEach<Data, Data.Element.ID, RowContent>, Data.Element: Identifiable {
        self.init { ForEach(data, content: rowContent) }
    }
}

extension List {
    /// A list of `data`'s rows a person may select: an iPhone's list outside edit mode shows no selection, so the
    /// rows are drawn as a list's without one.
    public init<Data: RandomAccessCollection, RowContent: View>(_ data: Data, selection: Binding<SelectionValue?>?,
                                                                 @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent)
    where Content == ForEach<Data, Data.Element.ID, RowContent>, Data.Element: Identifiable {
        self.init(selection: selection) { ForEach(data, content: rowContent) }
    }
}

/// A link to another screen: its label (a person never taps it here, so the destination is never shown).
public struct NavigationLink<Label: View, Destination: View>: View {
    let label: Label

    public init(@ViewBuilder destination: () -> Destination, @ViewBuilder label: () -> Label) { self.label = label() }
    public init(destination: Destination, @ViewBuilder label: () -> Label) { self.label = label() }
    public init<P: Hashable>(value: P?, @ViewBuilder label: () -> Label) where Destination == Never { self.label = label() }

    public var body: some View { label }
}

extension NavigationLink where Label == Text {
    public init(_ titleKey: LocalizedStringKey, @ViewBuilder destination: () -> Destination) { self.label = Text(titleKey) }
    public init<P: Hashable>(_ titleKey: LocalizedStringKey, value: P?) where Destination == Never { self.label = Text(titleKey) }
}

/// A navigation container: its root view (no other screen is ever pushed here).
public struct NavigationStack<Root: View>: View {
    let root: Root
    public init(@ViewBuilder root: () -> Root) { self.root = root() }
    public var body: some View { root }
}

nonisolated extension View {
    /// Swipe actions appear when a person swipes the row: never in a first frame.
    public func swipeActions<T: View>(edge: HorizontalEdge = .trailing, allowsFullSwipe: Bool = true, @ViewBuilder content: () -> T) -> some View { self }
    public func listRowInsets(_ insets: EdgeInsets?) -> some View { self }
    public func listRowBackground<V: View>(_ view: V?) -> some View { self }
    public func listRowSeparator(_ visibility: Visibility, edges: VerticalEdge.Set = .all) -> some View { self }
    public func listStyle<S: ListStyle>(_ style: S) -> some View { self }
    public func navigationTitle(_ title: String) -> some View { self }
    public func navigationDestination<D: Hashable, C: View>(for data: D.Type, @ViewBuilder destination: @escaping (D) -> C) -> some View { self }

    /// The padding a scene gives its content along `edges`: 16 points, iOS's standard margin.
    public func scenePadding(_ edges: Edge.Set = .all) -> some View { padding(edges, 16) }

    /// The shape `ContainerRelativeShape` takes inside this view: a rounded rectangle's corner radius, or a circle's.
    public func containerShape(_ shape: some Shape) -> some View {
        environmentModifier { env in
            if let rounded = shape as? RoundedRectangle { env.containerCornerRadius = rounded.cornerSize.width }
            if shape is Circle || shape is Capsule { env.containerCornerRadius = .greatestFiniteMagnitude }
        }
    }

    /// The shape of the bordered buttons (and button-style toggles) inside: a capsule, a rounded rectangle or a
    /// circle; `.automatic` is drawn as a capsule.
    public func buttonBorderShape(_ shape: ButtonBorderShape) -> some View {
        environmentModifier { $0.buttonBorderShape = shape }
    }
}

/// The shape of a bordered button.
public struct ButtonBorderShape: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        case automatic, capsule, circle
        /// nil: the system's radius.
        case roundedRectangle(CGFloat?)
    }
    let kind: Kind
    public static let automatic = ButtonBorderShape(kind: .automatic)
    public static let capsule = ButtonBorderShape(kind: .capsule)
    public static let circle = ButtonBorderShape(kind: .circle)
    public static let roundedRectangle = ButtonBorderShape(kind: .roundedRectangle(nil))
    public static func roundedRectangle(radius: CGFloat) -> ButtonBorderShape { ButtonBorderShape(kind: .roundedRectangle(radius)) }

    /// The radius `.roundedRectangle` takes without one: Apple publishes none; this is Lockstep's figure.
    static let systemCornerRadius: CGFloat = 8
}

/// A list's look; every list is drawn as an inset-grouped one.
public protocol ListStyle {}
public struct PlainListStyle: ListStyle { public init() {} }
public struct InsetGroupedListStyle: ListStyle { public init() {} }
public struct CarouselListStyle: ListStyle { public init() {} }
extension ListStyle where Self == PlainListStyle { public static var plain: PlainListStyle { PlainListStyle() } }
extension ListStyle where Self == InsetGroupedListStyle { public static var insetGrouped: InsetGroupedListStyle { InsetGroupedListStyle() } }
extension ListStyle where Self == CarouselListStyle { public static var carousel: CarouselListStyle { CarouselListStyle() } }

public enum Visibility: Hashable, Sendable { case automatic, visible, hidden }

public enum VerticalEdge: Int8, Hashable, Sendable {
    case top, bottom
    public struct Set: OptionSet, Hashable, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let top = Set(rawValue: 1)
        public static let bottom = Set(rawValue: 2)
        public static let all: Set = [.top, .bottom]
    }
}

// MARK: - scroll effects

/// Where a view is in a scroll view's visible region. A first frame shows every visible view at `.identity`.
public enum ScrollTransitionPhase: Hashable, Sendable {
    case topLeading, identity, bottomTrailing
    public var isIdentity: Bool { self == .identity }
    /// −1 before the visible region, 0 in it, 1 after it.
    public var value: Double { self == .topLeading ? -1 : self == .identity ? 0 : 1 }
}

public struct ScrollTransitionConfiguration: Sendable {
    public static let interactive = ScrollTransitionConfiguration()
    public static let animated = ScrollTransitionConfiguration()
    public static func animated(_ animation: Animation = .default) -> ScrollTransitionConfiguration { ScrollTransitionConfiguration() }
    public func threshold(_ threshold: ScrollTransitionConfiguration.Threshold) -> ScrollTransitionConfiguration { self }
    public struct Threshold: Sendable {
        public static let visible = Threshold()
        public static let hidden = Threshold()
        public static func visible(_ amount: Double) -> Threshold { Threshold() }
    }
}

/// The effects a scroll transition may apply (SwiftUI's `VisualEffect`): at `.identity` a transition usually applies
/// none, and those it applies are drawn.
public struct EmptyVisualEffect: Sendable {
    var scale: CGSize = CGSize(width: 1, height: 1)
    var scaleAnchor: UnitPoint = .center
    var opacity: Double = 1
    var offset: CGSize = .zero
    var rotation: Angle = .zero
    public init() {}
    public func scaleEffect(_ s: CGFloat, anchor: UnitPoint = .center) -> EmptyVisualEffect { scaleEffect(CGSize(width: s, height: s), anchor: anchor) }
    public func scaleEffect(_ s: CGSize, anchor: UnitPoint = .center) -> EmptyVisualEffect {
        var copy = self
        copy.scale = CGSize(width: scale.width * s.width, height: scale.height * s.height)
        copy.scaleAnchor = anchor
        return copy
    }
    public func opacity(_ o: Double) -> EmptyVisualEffect { var copy = self; copy.opacity *= o; return copy }
    public func offset(x: CGFloat = 0, y: CGFloat = 0) -> EmptyVisualEffect { offset(CGSize(width: x, height: y)) }
    public func offset(_ d: CGSize) -> EmptyVisualEffect {
        var copy = self
        copy.offset = CGSize(width: offset.width + d.width, height: offset.height + d.height)
        return copy
    }
    public func rotationEffect(_ a: Angle, anchor: UnitPoint = .center) -> EmptyVisualEffect { var copy = self; copy.rotation = copy.rotation + a; return copy }
    public func blur(radius: CGFloat, opaque: Bool = false) -> EmptyVisualEffect { self }
}

nonisolated extension View {
    /// The transition's effect at `.identity`, where a first frame shows a visible view.
    public func scrollTransition(_ configuration: ScrollTransitionConfiguration = .interactive, axis: Axis? = nil,
                                 transition: @escaping @Sendable (EmptyVisualEffect, ScrollTransitionPhase) -> EmptyVisualEffect) -> some View {
        let effect = transition(EmptyVisualEffect(), .identity)
        return self.scaleEffect(effect.scale, anchor: effect.scaleAnchor).rotationEffect(effect.rotation)
            .offset(effect.offset).opacity(effect.opacity)
    }
}

// MARK: - geometry in coordinate spaces

/// A coordinate space a geometry proxy measures in.
public struct NamedCoordinateSpace: Hashable, Sendable {
    let name: String
    public static let local = NamedCoordinateSpace(name: "local")
    public static let global = NamedCoordinateSpace(name: "global")
    public static let scrollView = NamedCoordinateSpace(name: "scrollView")
    public static func named(_ name: some Hashable) -> NamedCoordinateSpace { NamedCoordinateSpace(name: "\(name)") }
}

extension GeometryProxy {
    /// The view's frame: at the origin in its own space. Lockstep's geometry proxy knows the size it offers, not
    /// where the view is placed, so any other space gives the same frame (a documented limit).
    public func frame(in coordinateSpace: NamedCoordinateSpace) -> CGRect { CGRect(origin: .zero, size: size) }

    /// The bounds of an enclosing container's space: the view's own for `.local`; nil otherwise, as SwiftUI answers
    /// for a space the view is not inside (Lockstep's proxy does not know its containers).
    public func bounds(of coordinateSpace: NamedCoordinateSpace) -> CGRect? {
        coordinateSpace == .local ? CGRect(origin: .zero, size: size) : nil
    }
}

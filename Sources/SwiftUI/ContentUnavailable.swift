/// iOS 17's view for an empty state: a label (icon above title), a description and actions, centered in the space
/// offered, as SwiftUI lays it out.
public struct ContentUnavailableView<Label: View, Description: View, Actions: View>: View {
    let label: Label
    let description: Description
    let actions: Actions

    public init(@ViewBuilder label: () -> Label, @ViewBuilder description: () -> Description = { EmptyView() },
                @ViewBuilder actions: () -> Actions = { EmptyView() }) {
        self.label = label()
        self.description = description()
        self.actions = actions()
    }

    public var body: some View {
        VStack(spacing: 16) {
            label.environmentModifier { $0.labelStyleKind = .unavailableContent }
            description.font(.callout).foregroundStyle(.secondary).multilineTextAlignment(.center)
            actions
        }
        .padding()
        .frame(maxWidth: .infinity, maxHeight: .infinity)
    }
}

extension ContentUnavailableView where Label == SwiftUI.Label<Text, Image>, Description == Text?, Actions == EmptyView {
    public init(_ title: LocalizedStringKey, image name: String, description: Text? = nil) {
        self.init(label: { SwiftUI.Label(title, image: name) }, description: { description })
    }

    public init(_ title: LocalizedStringKey, systemImage name: String, description: Text? = nil) {
        self.init(label: { SwiftUI.Label(title, systemImage: name) }, description: { description })
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, systemImage name: String, description: Text? = nil) {
        self.init(label: { SwiftUI.Label(title, systemImage: name) }, description: { description })
    }

    /// The search variant: "No Results", with the text searched for.
    public static var search: Self { search(text: "") }

    public static func search(text: String) -> Self {
        ContentUnavailableView(label: { SwiftUI.Label("No Results", systemImage: "magnifyingglass") },
                               description: { Text(text.isEmpty ? "Check the spelling or try a new search." : "No results for “\(text)”") })
    }
}

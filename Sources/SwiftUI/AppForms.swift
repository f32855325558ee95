// Forms and sections: what a settings screen or a grouped list in a team's app holds. Drawn as an iPhone's first
// frame shows them in an inset-grouped list: a section's header above its rows' rounded card, its footer below.

/// A form: its rows and sections one under another, on the grouped background, as an inset-grouped list.
public struct Form<Content: View>: View {
    let content: Content

    public init(@ViewBuilder content: () -> Content) { self.content = content() }

    public var body: some View { GroupedList(content: content) }
}

/// The inset-grouped list `List` (with sections) and `Form` draw: the content from the top, on the grouped
/// background, with sections drawn as cards (`InsetGroupedMetrics`).
struct GroupedList<Content: View>: View {
    let content: Content
    @Environment(\.scrollContentMargins) private var margins

    var body: some View {
        VStack(alignment: .leading, spacing: 0) {
            content
        }
        // A list scrolls: `contentMargins(_:_:for:)` insets its content.
        .padding(margins)
        .environment(\.isInsetGroupedList, true)
        .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .top)
        .background(GroupedBackground(level: 0))
    }
}

/// The figures of iOS's inset-grouped list. Apple publishes no numbers for them; these are Lockstep's reading of an
/// iPhone's Settings screen: cards 16 points from the screen's edges with 10-point corners, row content 16 points
/// inside the card and at least 44 points tall (the Human Interface Guidelines' minimum hit target), a header in the
/// footnote style, upper-cased and secondary, and 35 points between sections.
enum InsetGroupedMetrics {
    static let cardInset: CGFloat = 16
    static let cornerRadius: CGFloat = 10
    static let rowInsets = EdgeInsets(top: 11, leading: 16, bottom: 11, trailing: 16)
    static let rowMinHeight: CGFloat = 44
    static let headerInsets = EdgeInsets(top: 0, leading: 16, bottom: 7, trailing: 16)
    static let footerInsets = EdgeInsets(top: 7, leading: 16, bottom: 0, trailing: 16)
    static let sectionSpacing: CGFloat = 35
}

/// UIKit's `systemGroupedBackground` (level 0: behind the cards) and `secondarySystemGroupedBackground` (level 1:
/// the cards), light and dark.
struct GroupedBackground: ShapeStyle {
    let level: Int
    func resolve(in environment: EnvironmentValues) -> Color {
        let dark = environment.colorScheme == .dark
        switch (level, dark) {
        case (0, false): return Color(red: 0xF2 / 255, green: 0xF2 / 255, blue: 0xF7 / 255)
        case (0, true): return Color(red: 0, green: 0, blue: 0)
        case (_, false): return Color(red: 1, green: 1, blue: 1)
        case (_, true): return Color(red: 0x1C / 255, green: 0x1C / 255, blue: 0x1E / 255)
        }
    }
}

private struct InsetGroupedListKey: EnvironmentKey {
    static let defaultValue = false
}

extension EnvironmentValues {
    /// Whether the view is inside a `Form` or a `List`, where a `Section` is drawn as a card.
    var isInsetGroupedList: Bool {
        get { self[InsetGroupedListKey.self] }
        set { self[InsetGroupedListKey.self] = newValue }
    }
}

/// A section of a list or form: its header, its rows and its footer. In a `List` or `Form` the rows are drawn on a
/// rounded card between the header and the footer; elsewhere (a `LazyVStack`) the three stand one above the other.
public struct Section<Parent: View, Content: View, Footer: View>: View {
    let header: Parent
    let content: Content
    let footer: Footer
    @Environment(\.isInsetGroupedList) private var isInsetGroupedList

    public init(@ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent, @ViewBuilder footer: () -> Footer) {
        self.header = header()
        self.content = content()
        self.footer = footer()
    }

    public var body: some View {
        if isInsetGroupedList {
            VStack(alignment: .leading, spacing: 0) {
                header
                    .font(.footnote).textCase(.uppercase).foregroundStyle(.secondary)
                    .padding(InsetGroupedMetrics.headerInsets)
                SectionRows(content: content)
                    .background(GroupedBackground(level: 1), in: RoundedRectangle(cornerRadius: InsetGroupedMetrics.cornerRadius))
                footer
                    .font(.footnote).foregroundStyle(.secondary)
                    .padding(InsetGroupedMetrics.footerInsets)
            }
            .padding(.horizontal, InsetGroupedMetrics.cardInset)
            .padding(.top, InsetGroupedMetrics.sectionSpacing)
        } else {
            VStack(alignment: .leading, spacing: 0) {
                header
                content
                footer
            }
        }
    }
}

extension Section where Parent == EmptyView, Footer == EmptyView {
    public init(@ViewBuilder content: () -> Content) {
        self.init(content: content, header: { EmptyView() }, footer: { EmptyView() })
    }
}

extension Section where Footer == EmptyView {
    public init(@ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent) {
        self.init(content: content, header: header, footer: { EmptyView() })
    }
}

extension Section where Parent == EmptyView {
    public init(@ViewBuilder content: () -> Content, @ViewBuilder footer: () -> Footer) {
        self.init(content: content, header: { EmptyView() }, footer: footer)
    }
}

extension Section where Parent == Text, Footer == EmptyView {
    public init(_ titleKey: LocalizedStringKey, @ViewBuilder content: () -> Content) {
        self.init(content: content, header: { Text(titleKey) })
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {
        self.init(content: content, header: { Text(String(title)) })
    }
}

/// A section's rows in its card: each padded and at least a row tall, a separator between two rows from the row
/// content's leading edge to the card's trailing one, as UIKit's cells draw it.
struct SectionRows<Content: View>: View, PrimitiveView {
    typealias Body = Never
    let content: Content

    static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }

    func nodes(_ context: ResolveContext) -> [Node] {
        let rows = resolve(content
            .padding(InsetGroupedMetrics.rowInsets)
            .frame(maxWidth: .infinity, minHeight: InsetGroupedMetrics.rowMinHeight, alignment: .leading), context)
        var children: [Node] = []
        for row in rows {
            if !children.isEmpty {
                let separator = EdgeInsets(top: 0, leading: InsetGroupedMetrics.rowInsets.leading, bottom: 0, trailing: 0)
                children.append(PaddingNode(insets: separator, child: resolveOne(Divider(), context)))
            }
            children.append(row)
        }
        return [StackNode(axis: .vertical, alignment: Alignment(horizontal: .leading, vertical: .center), spacing: 0, children: children)]
    }
}

// MARK: - text entry

/// A field a person types into: its text, or its prompt (its title without one) in the placeholder color while empty.
/// Nobody types here, so the text is the binding's at the first frame.
public struct TextField<Label: View>: View {
    let text: String
    let placeholder: Text

    public var body: some View { TextEntry(shown: text, placeholder: placeholder) }
}

extension TextField where Label == Text {
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>) {
        self.init(text: text.wrappedValue, placeholder: Text(titleKey))
    }

    public init(_ titleKey: LocalizedStringKey, text: Binding<String>, prompt: Text?) {
        self.init(text: text.wrappedValue, placeholder: prompt ?? Text(titleKey))
    }

    /// A field that grows along `axis` as a person types: it holds the binding's text at the first frame.
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>, prompt: Text? = nil, axis: Axis) {
        self.init(text: text.wrappedValue, placeholder: prompt ?? Text(titleKey))
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, text: Binding<String>) {
        self.init(text: text.wrappedValue, placeholder: Text(String(title)))
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, text: Binding<String>, prompt: Text?) {
        self.init(text: text.wrappedValue, placeholder: prompt ?? Text(String(title)))
    }

    /// A field showing a value in `format` (`TextField("Amount", value: $amount, format: .number)`).
    public init<F: ParseableFormatStyle>(_ titleKey: LocalizedStringKey, value: Binding<F.FormatInput>, format: F, prompt: Text? = nil)
    where F.FormatOutput == String {
        self.init(text: format.format(value.wrappedValue), placeholder: prompt ?? Text(titleKey))
    }
}

/// A field for a password: a bullet per character of its text, or its prompt while empty.
public struct SecureField<Label: View>: View {
    let text: String
    let placeholder: Text

    public var body: some View { TextEntry(shown: String(repeating: "•", count: text.count), placeholder: placeholder) }
}

extension SecureField where Label == Text {
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>) {
        self.init(text: text.wrappedValue, placeholder: Text(titleKey))
    }

    public init(_ titleKey: LocalizedStringKey, text: Binding<String>, prompt: Text?) {
        self.init(text: text.wrappedValue, placeholder: prompt ?? Text(titleKey))
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, text: Binding<String>) {
        self.init(text: text.wrappedValue, placeholder: Text(String(title)))
    }
}

/// What a text field draws: the text, or the placeholder in UIKit's `placeholderText` (the tertiary label color),
/// leading in the width offered.
struct TextEntry: View {
    let shown: String
    let placeholder: Text

    var body: some View {
        Group {
            if shown.isEmpty {
                placeholder.foregroundStyle(.tertiary)
            } else {
                Text(verbatim: shown)
            }
        }
        .lineLimit(1)
        .frame(maxWidth: .infinity, alignment: .leading)
    }
}

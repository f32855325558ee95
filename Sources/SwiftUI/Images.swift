/// An image: an SF Symbol (drawn as a labelled placeholder glyph, as symbols may not be redistributed) or a named
/// image of the bundle's asset catalogs (`AssetCatalog`), drawn at its size; one the bundle lacks is a labelled placeholder.
public struct Image: Equatable, Sendable {
    let name: String
    let isSymbol: Bool
    var isResizable = false
    var renderingTemplate = false
    /// `.renderingMode(.original)`: drawn as the picture is, even when its catalog says template.
    var renderingOriginal = false
    /// `Image(uiImage:)`: the UIKit image's picture and size.
    var uiImage: UIImage?

    public init(systemName: String) {
        name = systemName
        isSymbol = true
    }

    public init(_ name: String, bundle: Bundle? = nil) {
        self.name = name
        isSymbol = false
    }

    /// An image of the asset catalogue through Xcode's generated symbol: `Image(.logo)`.
    public init(_ resource: ImageResource) {
        self.init(resource.name)
    }
    public init(_ name: String, bundle: Bundle? = nil, label: Text) {
        self.init(name, bundle: bundle)
    }

    public init(decorative name: String, bundle: Bundle? = nil) {
        self.init(name, bundle: bundle)
    }

    /// A UIKit image: its picture at its size (a catalog image, or PNG, JPEG or SVG data), a symbol's placeholder.
    public init(uiImage: UIImage) {
        name = uiImage.name ?? "UIImage"
        isSymbol = uiImage.isSymbol
        renderingTemplate = uiImage.renderingMode == .alwaysTemplate && !uiImage.isSymbol
        self.uiImage = uiImage
    }

    public enum ResizingMode: Hashable, Sendable { case tile, stretch }
    public enum TemplateRenderingMode: Hashable, Sendable { case template, original }
    public enum Scale: Hashable, Sendable { case small, medium, large }
    public enum Interpolation: Hashable, Sendable { case none, low, medium, high }

    /// The image stretches to the size it is offered instead of keeping its own.
    public func resizable(capInsets: EdgeInsets = EdgeInsets(), resizingMode: Image.ResizingMode = .stretch) -> Image {
        var image = self
        image.isResizable = true
        return image
    }

    public func renderingMode(_ renderingMode: Image.TemplateRenderingMode?) -> Image {
        var image = self
        image.renderingTemplate = renderingMode == .template
        image.renderingOriginal = renderingMode == .original
        return image
    }

    public func interpolation(_ interpolation: Image.Interpolation) -> Image { self }
    public func antialiased(_ isAntialiased: Bool) -> Image { self }

    /// The size an image has of its own: a symbol is about as tall as the font's line and a little wider than
    /// tall; an asset image has no known size here, so a 40-point square stands in.
    static func intrinsicSize(isSymbol: Bool, font: ResolvedFont) -> CGSize {
        isSymbol ? CGSize(width: (font.size * 1.15).rounded(), height: (font.size * 1.0).rounded()) : CGSize(width: 40, height: 40)
    }
}

extension Image: View { public typealias Body = Never }
extension Image: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        let env = context.environment
        let font = (env.font ?? .body).resolved(env.dynamicTypeSize)
        let redacted = env.redactionReasons.contains(.placeholder) && !env.isUnredacted
        // An asset image has its catalog's size (pixels ÷ scale); one the bundle lacks keeps a 40-point placeholder.
        let asset = isSymbol ? nil : uiImage.map { AssetCatalog.ImageAsset(size: $0.size, dataURL: $0.dataURL, isTemplate: false) }
            ?? AssetCatalog.current.images[name]
        var mask: ImageMask = renderingTemplate || (asset?.isTemplate ?? false) && !renderingOriginal ? .alpha : .none
        var paint = redacted ? env.foregroundPaint(level: 3) : env.foregroundPaint(level: 0)
        // WidgetKit's accented rendering "treats the widget's views as if they were template images", in their
        // group's color; an image's widgetAccentedRenderingMode chooses otherwise (Apple's WidgetAccentedRenderingMode).
        if env.widgetColorRendering == .accented, !isSymbol, !redacted, asset?.dataURL != nil {
            var group = env
            switch env.imageAccentedRendering {
            case nil: mask = .alpha
            case .accented?: (mask, group.isWidgetAccentable) = (.alpha, true)
            case .desaturated?: (mask, group.isWidgetAccentable) = (.luminance, false)
            case .accentedDesaturated?: (mask, group.isWidgetAccentable) = (.luminance, true)
            case .fullColor?: mask = .none
            }
            paint = group.foregroundPaint(level: 0)
        }
        // A custom symbol is drawn at the font's size, as the template's 100-point glyph scaled.
        let intrinsic = asset.map { $0.isSymbol ? CGSize(width: $0.size.width * font.size / 100, height: $0.size.height * font.size / 100) : $0.size }
        let node = ImageNode(name: isSymbol ? env.symbolVariants.applied(to: name) : name, isSymbol: isSymbol, resizable: isResizable,
                             intrinsic: intrinsic ?? Image.intrinsicSize(isSymbol: isSymbol, font: font),
                             paint: paint, scale: isSymbol || asset?.isSymbol == true ? env.imageScale : .medium, asset: asset, mask: mask)
        // A symbol or template is drawn in the foreground style, with its blend mode and shadow.
        return [isSymbol || mask != .none ? withStyleEffects(node, ForegroundStyle(), env) : node]
    }
}

final class ImageNode: Node {
    let name: String
    let isSymbol: Bool
    let resizable: Bool
    let intrinsic: CGSize
    let paint: Paint
    let asset: AssetCatalog.ImageAsset?
    let mask: ImageMask

    init(name: String, isSymbol: Bool, resizable: Bool, intrinsic: CGSize, paint: Paint, scale: Image.Scale,
         asset: AssetCatalog.ImageAsset? = nil, mask: ImageMask = .none) {
        self.asset = asset
        self.mask = mask
        self.name = name
        self.isSymbol = isSymbol
        self.resizable = resizable
        let factor: CGFloat = scale == .small ? 0.78 : scale == .large ? 1.29 : 1
        self.intrinsic = CGSize(width: (intrinsic.width * factor).rounded(), height: (intrinsic.height * factor).rounded())
        self.paint = paint
    }

    override func computeSize(_ proposal: Proposal) -> CGSize {
        guard resizable else { return intrinsic }
        return CGSize(width: proposal.width ?? intrinsic.width, height: proposal.height ?? intrinsic.height)
    }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        if isSymbol {
            canvas.ops.append(.symbol(name: name, rect: rect, paint: paint))
        } else {
            canvas.ops.append(.image(name: name, rect: rect, asset: asset, mask: mask, paint: paint))
        }
        canvas.placed.append(("Image(\(name))", rect))
    }
}

/// A title with an icon (`Label("Done", systemImage: "checkmark")`), drawn as the icon then the title.
public struct Label<Title: View, Icon: View> {
    let title: Title
    let icon: Icon
    public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {
        self.title = title()
        self.icon = icon()
    }
}

extension Label where Title == Text, Icon == Image {
    public init(_ titleKey: LocalizedStringKey, systemImage name: String) {
        self.init(title: { Text(titleKey) }, icon: { Image(systemName: name) })
    }
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, systemImage name: String) {
        self.init(title: { Text(title) }, icon: { Image(systemName: name) })
    }
    public init(_ titleKey: LocalizedStringKey, image name: String) {
        self.init(title: { Text(titleKey) }, icon: { Image(name) })
    }
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, image name: String) {
        self.init(title: { Text(title) }, icon: { Image(name) })
    }
}

extension Label: View { public typealias Body = Never }

/// A label's two parts apart, for those that draw them in places of their own (WidgetKit's controls put the icon
/// in a circle and the title beside it, as Control Center does).
package protocol LabelParts {
    var titlePart: AnyView { get }
    var iconPart: AnyView { get }
}

extension Label: LabelParts {
    package var titlePart: AnyView { AnyView(title) }
    package var iconPart: AnyView { AnyView(icon) }
}
extension Label: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        switch context.environment.labelStyleKind {
        case .titleOnly: return resolve(title, context)
        case .iconOnly: return resolve(icon, context)
        case .titleAndIcon:
            // Several views in the title are a title and subtitles, one under the other (as a Lock Screen accessory
            // or a list row shows them), beside the icon.
            let titles = resolve(title, context)
            let titleNode = titles.count > 1
                ? StackNode(axis: .vertical, alignment: Alignment(horizontal: .leading, vertical: .center), spacing: 0, children: titles) : single(titles)
            return [StackNode(axis: .horizontal, alignment: Alignment(horizontal: .center, vertical: .center), spacing: 6,
                              children: resolve(icon, context) + [titleNode])]
        case .unavailableContent:
            // ContentUnavailableView's: a large secondary icon above a bold title, centered.
            var iconContext = context, titleContext = context
            iconContext.environment.font = .system(size: 48)
            iconContext.environment.foregroundStyleValue = AnyShapeStyle(HierarchicalShapeStyle.secondary)
            titleContext.environment.font = Font.title2.bold()
            titleContext.environment.labelStyleKind = .titleAndIcon
            return [StackNode(axis: .vertical, alignment: Alignment(horizontal: .center, vertical: .center), spacing: 12,
                              children: resolve(icon, iconContext) + resolve(title, titleContext))]
        }
    }
}

/// How labels show: icon and title, title only, icon only.
public protocol LabelStyle {}
public struct DefaultLabelStyle: LabelStyle { public init() {} }
public struct TitleAndIconLabelStyle: LabelStyle { public init() {} }
public struct TitleOnlyLabelStyle: LabelStyle { public init() {} }
public struct IconOnlyLabelStyle: LabelStyle { public init() {} }

extension LabelStyle where Self == DefaultLabelStyle { public static var automatic: DefaultLabelStyle { DefaultLabelStyle() } }
extension LabelStyle where Self == TitleAndIconLabelStyle { public static var titleAndIcon: TitleAndIconLabelStyle { TitleAndIconLabelStyle() } }
extension LabelStyle where Self == TitleOnlyLabelStyle { public static var titleOnly: TitleOnlyLabelStyle { TitleOnlyLabelStyle() } }
extension LabelStyle where Self == IconOnlyLabelStyle { public static var iconOnly: IconOnlyLabelStyle { IconOnlyLabelStyle() } }

enum LabelStyleKind { case titleAndIcon, titleOnly, iconOnly, unavailableContent }

nonisolated extension View {
    public func labelStyle<S: LabelStyle>(_ style: S) -> some View {
        let kind: LabelStyleKind = style is TitleOnlyLabelStyle ? .titleOnly : style is IconOnlyLabelStyle ? .iconOnly : .titleAndIcon
        return environmentModifier { $0.labelStyleKind = kind }
    }

    public func imageScale(_ scale: Image.Scale) -> some View {
        environmentModifier { $0.imageScale = scale }
    }
}

/// How an asset image is drawn: as its picture, or as a fill through its alpha (a template) or its luminance.
package enum ImageMask: Sendable { case none, alpha, luminance }

/// How an image shows in a widget's accented rendering (WidgetKit's `WidgetAccentedRenderingMode`).
package enum ImageAccentedRendering: Sendable { case accented, desaturated, accentedDesaturated, fullColor }

private struct ImageAccentedRenderingKey: EnvironmentKey { static let defaultValue: ImageAccentedRendering? = nil }

extension EnvironmentValues {
    /// The image's `widgetAccentedRenderingMode`; nil: drawn as a template image, as accented rendering draws views.
    package var imageAccentedRendering: ImageAccentedRendering? {
        get { self[ImageAccentedRenderingKey.self] }
        set { self[ImageAccentedRenderingKey.self] = newValue }
    }
}

import Foundation
import Testing
@testable import SwiftUI

/// UIKit's non-view types as real extension code uses them: colors that resolve per appearance as SwiftUI's do,
/// catalog and data images with their sizes, fonts with Apple's text-style sizes, the simulated device and screen.
@Suite(.serialized) struct UIKitTests {
    @Test @MainActor func colorsResolvePerAppearanceAsSwiftUIs() throws {
        var light = EnvironmentValues()
        var dark = EnvironmentValues()
        light.colorScheme = .light
        dark.colorScheme = .dark
        #expect(Color(uiColor: .systemBlue).resolve(light) == Color.blue.resolve(light))
        #expect(Color(UIColor.systemBlue).resolve(dark) == Color.blue.resolve(dark))
        #expect(Color(uiColor: .label).resolve(dark) == Color.primary.resolve(dark))
        #expect(Color(uiColor: .systemBackground).resolve(light) == RGBA(1, 1, 1) && Color(uiColor: .systemBackground).resolve(dark) == RGBA(0, 0, 0))
        let dynamic = UIColor { $0.userInterfaceStyle == .dark ? .white : UIColor(red: 1, green: 0, blue: 0, alpha: 1) }
        #expect(Color(uiColor: dynamic).resolve(light) == RGBA(1, 0, 0) && Color(uiColor: dynamic).resolve(dark) == RGBA(1, 1, 1))
        #expect(dynamic.resolvedColor(with: UITraitCollection(userInterfaceStyle: .dark)) == UIColor.white)
        var red: CGFloat = 0, alpha: CGFloat = 0
        #expect(UIColor.systemRed.withAlphaComponent(0.5).getRed(&red, green: nil, blue: nil, alpha: &alpha) && red == 1 && alpha == 0.5)
        #expect(UIColor(named: "NoSuchColorAnywhere") == nil)
    }

    @Test @MainActor func imagesHaveTheirSizes() throws {
        let root = try AssetCatalogTests.catalog()
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        AssetCatalog.use([root.path])
        let photo = try #require(UIImage(named: "LSTestPhoto"))
        #expect(photo.size == CGSize(width: 30, height: 20))
        #expect(UIImage(named: "LSTestMissing") == nil)
        #expect(UIColor(named: "LSTestFloat").map { Color(uiColor: $0).resolve(EnvironmentValues()) } == RGBA(1, 0.5, 0, 1))
        let png = try #require(photo.pngData())
        let fromData = try #require(UIImage(data: png, scale: 2))
        #expect(fromData.size == CGSize(width: 45, height: 30) && fromData.scale == 2)
        #expect(UIImage(data: Data("not a picture".utf8)) == nil)
        let frames = placed(HStack(spacing: 0) { Image(uiImage: photo); Image(uiImage: fromData) }, width: 300, height: 100)
        #expect(frames.map(\.rect.size) == [CGSize(width: 30, height: 20), CGSize(width: 45, height: 30)])
        let svg = render(Image(uiImage: fromData), RenderRequest(size: CGSize(width: 100, height: 100))).svg(title: nil)
        #expect(svg.contains("<image href=\"data:image/png;base64,"))
    }

    @Test func fontsDevicesAndScreens() {
        #expect(UIFont.preferredFont(forTextStyle: .headline).pointSize == 17 && UIFont.preferredFont(forTextStyle: .headline).weight == .semibold)
        #expect(UIFont.preferredFont(forTextStyle: .caption2).pointSize == 11)
        #expect(UIFont.systemFont(ofSize: 20).lineHeight == 23.86)
        #expect(UIDevice.current.systemName == "iOS" && UIDevice.current.userInterfaceIdiom == .phone)
        #expect(UIScreen.main.bounds.size == CGSize(width: 393, height: 852) && UIScreen.main.scale == 3)
        #expect(UIApplication.shared.canOpenURL(URL(string: "https://example.com")!))
        #expect(!UIApplication.shared.canOpenURL(URL(string: "otherapp://x")!))
        // Outside a simulated process there is no app to be in the foreground.
        #expect(UIApplication.shared.applicationState == .background)
    }
}

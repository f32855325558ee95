import Foundation
import LockstepTestSupport
import Testing
@testable import BuildKit

/// Xcode's generated asset symbols, as `lockstep build` writes them for a target with catalogs.
@Suite struct AssetSymbolsTests {
    @Test func namesFollowXcodesRule() {
        #expect(AssetSymbols.identifier("AccentColor", suffix: "Color") == "accent")
        #expect(AssetSymbols.identifier("brand-blue", suffix: "Color") == "brandBlue")
        #expect(AssetSymbols.identifier("Icons/Star", suffix: "Image") == "iconsStar")
        #expect(AssetSymbols.identifier("URLBadge", suffix: "Image") == "urlBadge")
        #expect(AssetSymbols.identifier("Color", suffix: "Color") == "color")
        #expect(AssetSymbols.identifier("2up", suffix: "Image") == "_2up")
        #expect(AssetSymbols.identifier("default", suffix: "Color") == "`default`")
        #expect(AssetSymbols.identifier("--", suffix: "Color") == nil)
        #expect(AssetSymbols.typeName("Bird Houses") == "BirdHouses" && AssetSymbols.typeName("Bird 1") == "Bird1")
    }

    @Test func aCatalogsColorsAndImagesBecomeResourcesAndTheExtensionsWhenTheTargetAsks() throws {
        let root = TestSupport.temporaryDirectory("asset-symbols")
        defer { TestSupport.cleanUp(root) }
        let catalog = root.appendingPathComponent("Assets.xcassets").path
        for folder in ["AccentColor.colorset", "Brand/Ink.colorset", "Logo.imageset", "Shared", "Shared/Badge.imageset", "Cup.symbolset"] {
            try FileManager.default.createDirectory(atPath: "\(catalog)/\(folder)", withIntermediateDirectories: true)
        }
        // Only a folder that provides a namespace prefixes its assets' names, and is a nested type of the symbols, as
        // Apple's Backyard Birds writes `ImageResource.Fountain.stone`.
        try Data(#"{"properties":{"provides-namespace":true}}"#.utf8).write(to: URL(fileURLWithPath: "\(catalog)/Brand/Contents.json"))
        let source = try #require(AssetSymbols.source(resources: [catalog], generation: .resources))
        #expect(source.contains(#"    static let accent = ColorResource(name: "AccentColor", bundle: .main)"#))
        #expect(source.contains("    enum Brand {\n        static let ink = ColorResource(name: \"Brand/Ink\", bundle: .main)\n    }"), "\(source)")
        #expect(source.contains(#"    static let logo = ImageResource(name: "Logo", bundle: .main)"#))
        #expect(source.contains(#"    static let cup = ImageResource(name: "Cup", bundle: .main)"#))
        #expect(source.contains(#"    static let badge = ImageResource(name: "Badge", bundle: .main)"#))
        #expect(!source.contains("extension Color {"))
        let extended = try #require(AssetSymbols.source(resources: [catalog], generation: .resourcesAndExtensions))
        #expect(extended.contains("extension ShapeStyle where Self == Color {\n    static var accent: Color { Color(ColorResource.accent) }"), "\(extended)")
        #expect(extended.contains("    static var logo: UIImage { UIImage(resource: ImageResource.logo) }"))
        #expect(AssetSymbols.source(resources: [catalog], generation: .none) == nil)
        #expect(AssetSymbols.source(resources: [root.path + "/Empty.xcassets"], generation: .resources) == nil)
        #expect(AssetSymbols.Generation(symbols: "", extensions: "") == .resources)
        #expect(AssetSymbols.Generation(symbols: "NO", extensions: "YES") == .none)
        #expect(AssetSymbols.Generation(symbols: "YES", extensions: "YES") == .resourcesAndExtensions)
    }
}

import Foundation
import Testing
@testable import SwiftUI
@testable import UIKit

/// The bundle's asset catalogs, as Xcode writes them: `Color("Name")` and `Image("Name")` draw what the catalog
/// holds, at the size its pixels and scale give (Apple's "Asset Catalog Format Reference": Contents.json of color
/// sets and image sets).
@Suite(.serialized) struct AssetCatalogTests {
    /// A catalog in a fresh folder: colors written in each form Xcode writes, a namespace folder, and images.
    static func catalog() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString)/Assets.xcassets")
        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        func data(_ path: String, _ bytes: [UInt8]) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        try write("LSTestFloat.colorset/Contents.json", """
            {"colors":[{"color":{"color-space":"srgb","components":{"red":"1.000","green":"0.500","blue":"0.000","alpha":"1.000"}},"idiom":"universal"},
             {"appearances":[{"appearance":"luminosity","value":"dark"}],"color":{"color-space":"display-p3","components":{"red":"0x00","green":"0xFF","blue":"0x80","alpha":"1.000"}},"idiom":"universal"},
             {"appearances":[{"appearance":"contrast","value":"high"}],"color":{"color-space":"srgb","components":{"red":"0","green":"0","blue":"0","alpha":"1"}},"idiom":"universal"}]}
            """)
        try write("LSTestBytes.colorset/Contents.json", #"{"colors":[{"color":{"color-space":"srgb","components":{"red":"255","green":"0","blue":"128","alpha":"0.500"}},"idiom":"universal"}]}"#)
        try write("LSTestGray.colorset/Contents.json", #"{"colors":[{"color":{"color-space":"gray-gamma-22","components":{"white":"0.200","alpha":"1.000"}},"idiom":"universal"}]}"#)
        try write("Brand/Contents.json", #"{"properties":{"provides-namespace":true}}"#)
        try write("Brand/LSTestInk.colorset/Contents.json", #"{"colors":[{"color":{"platform":"ios","reference":"systemBlueColor"},"idiom":"universal"}]}"#)
        // A 90 × 60 pixel PNG header at 3x: 30 × 20 points.
        try data("LSTestPhoto.imageset/photo@3x.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
                                                       0, 0, 0, 90, 0, 0, 0, 60, 8, 6, 0, 0, 0])
        try write("LSTestPhoto.imageset/Contents.json", #"{"images":[{"idiom":"universal","scale":"1x"},{"filename":"photo@3x.png","idiom":"universal","scale":"3x"}]}"#)
        // A JPEG whose first frame is 40 × 80 pixels, at 2x: 20 × 40 points.
        try data("LSTestJPEG.imageset/p.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xC0, 0, 17, 8, 0, 80, 0, 40, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        try write("LSTestJPEG.imageset/Contents.json", #"{"images":[{"filename":"p.jpg","idiom":"universal","scale":"2x"}]}"#)
        try write("LSTestGlyph.imageset/glyph.svg", #"<svg xmlns="http://www.w3.org/2000/svg" width="18" height="12"><rect width="18" height="12"/></svg>"#)
        try write("LSTestGlyph.imageset/Contents.json", #"{"images":[{"filename":"glyph.svg","idiom":"universal"}],"properties":{"template-rendering-intent":"template","preserves-vector-representation":true}}"#)
        return root
    }

    @Test @MainActor func colorsResolveInEveryFormAndAppearance() throws {
        let root = try Self.catalog()
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        AssetCatalog.use([root.path])
        var light = EnvironmentValues()
        var dark = EnvironmentValues()
        light.colorScheme = .light
        dark.colorScheme = .dark
        #expect(Color("LSTestFloat").resolve(light) == RGBA(1, 0.5, 0, 1))
        #expect(Color("LSTestFloat").resolve(dark) == RGBA(0, 1, Double(0x80) / 255, 1))
        #expect(Color("LSTestBytes").resolve(light) == RGBA(1, 0, 128.0 / 255, 0.5))
        #expect(Color("LSTestGray").resolve(light) == RGBA(0.2, 0.2, 0.2, 1))
        #expect(Color("Brand/LSTestInk").resolve(light) == Color.blue.resolve(light))
        // A name the catalogs lack stays the neutral gray.
        #expect(Color("LSTestMissing").resolve(light) == RGBA(hex: 0x8E8E93))
    }

    @Test @MainActor func imagesHaveTheirCatalogSizeAndPicture() throws {
        let root = try Self.catalog()
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        AssetCatalog.use([root.path])
        let frames = placed(HStack(spacing: 0) { Image("LSTestPhoto"); Image("LSTestJPEG"); Image("LSTestGlyph"); Image("LSTestMissing") },
                            width: 300, height: 100)
        #expect(frames.map(\.rect.size) == [CGSize(width: 30, height: 20), CGSize(width: 20, height: 40), CGSize(width: 18, height: 12),
                                             CGSize(width: 40, height: 40)])
        let svg = render(Image("LSTestPhoto"), RenderRequest(size: CGSize(width: 100, height: 100))).svg(title: nil)
        #expect(svg.contains("<image href=\"data:image/png;base64,iVBORw0KGgo"), "\(svg)")
        // A template image is a fill masked by its picture.
        let glyph = render(Image("LSTestGlyph").foregroundStyle(Color.red), RenderRequest(size: CGSize(width: 100, height: 100))).svg(title: nil)
        #expect(glyph.contains("style=\"mask-type:alpha\"") && glyph.contains(/mask="url\(#p[0-9a-f]+-m1\)"/), "\(glyph)")
        let original = render(Image("LSTestGlyph").renderingMode(.original), RenderRequest(size: CGSize(width: 100, height: 100))).svg(title: nil)
        #expect(!original.contains("mask="), "\(original)")
    }

    /// A custom symbol: the template sheet's Regular-M glyph alone, drawn at the font's size (at 100 points it spans
    /// its margins, 50 wide, and a 100-point line centered on the cap height), tinted as a template.
    @Test @MainActor func customSymbolsAreTheTemplatesGlyphAtTheFontsSize() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("symbols-\(UUID().uuidString)/Assets.xcassets")
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let folder = root.appendingPathComponent("LSTestCup.symbolset")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"{"symbols":[{"filename":"cup.svg","idiom":"universal"}]}"#.write(to: folder.appendingPathComponent("Contents.json"), atomically: true, encoding: .utf8)
        try """
            <svg xmlns="http://www.w3.org/2000/svg" width="3300" height="2200">
             <g id="Notes"><rect height="2200" id="artboard" style="fill:white" width="3300" x="0" y="0"/><text>Weight/Scale Variations</text></g>
             <g id="Guides">
              <line id="Baseline-M" x1="263" x2="3036" y1="1126" y2="1126"/>
              <line id="Capline-M" x1="263" x2="3036" y1="1056" y2="1056"/>
              <line id="left-margin-Regular-M" x1="1400" x2="1400" y1="1060" y2="1130"/>
              <line id="right-margin-Regular-M" x1="1450" x2="1450" y1="1060" y2="1130"/>
             </g>
             <g id="Symbols">
              <g id="Bold-M" transform="matrix(1 0 0 1 1400 1126)"><path class="monochrome-0" d="M0 0L9 9"/></g>
              <g id="Regular-M" transform="matrix(1 0 0 1 1400 1126)"><path class="monochrome-0 hierarchical-0:primary" d="M0 0L50 -70Z"/></g>
             </g>
            </svg>
            """.write(to: folder.appendingPathComponent("cup.svg"), atomically: true, encoding: .utf8)
        AssetCatalog.use([root.path])
        let asset = try #require(AssetCatalog.current.images["LSTestCup"])
        // Cap height 70: the line runs from 35 − 50 = −85 to 35 + 50 = 15 below the baseline... as y, −85…15.
        #expect(asset.isSymbol && asset.isTemplate && asset.size == CGSize(width: 50, height: 100))
        let picture = String(decoding: Data(base64Encoded: String(asset.dataURL!.split(separator: ",")[1]))!, as: UTF8.self)
        #expect(picture.contains("viewBox=\"0.0 -85.0 50.0 100.0\"") && picture.contains("d=\"M0 0L50 -70Z\""), "\(picture)")
        #expect(!picture.contains("Weight/Scale") && !picture.contains("M0 0L9 9") && !picture.contains("class="))
        // At a 20-point font: 10 × 20.
        let frames = placed(Image("LSTestCup").font(.system(size: 20)), width: 100, height: 100)
        #expect(frames.map(\.rect.size) == [CGSize(width: 10, height: 20)])
        // A template of one weight names its margins without the weight.
        let single = try String(contentsOf: folder.appendingPathComponent("cup.svg"), encoding: .utf8)
            .replacingOccurrences(of: "left-margin-Regular-M", with: "left-margin").replacingOccurrences(of: "right-margin-Regular-M", with: "right-margin")
        #expect(SymbolTemplate(single)?.viewBox == CGRect(x: 0, y: -85, width: 50, height: 100))
    }

    @Test @MainActor func xcodesGeneratedResourcesResolveFromTheCatalog() throws {
        let root = try Self.catalog()
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        AssetCatalog.use([root.path])
        var light = EnvironmentValues()
        light.colorScheme = .light
        // `Color(.lsTestFloat)` as Xcode's generated symbol names it: the same color set as `Color("LSTestFloat")`.
        let resource = ColorResource(name: "LSTestFloat", bundle: .main)
        #expect(Color(resource).resolve(light) == RGBA(1, 0.5, 0, 1))
        #expect(Color(UIColor(resource: resource)).resolve(light) == RGBA(1, 0.5, 0, 1))
        let photo = ImageResource(name: "LSTestPhoto", bundle: .main)
        #expect(placed(Image(photo), width: 100, height: 100).map(\.rect.size) == [CGSize(width: 30, height: 20)])
        #expect(UIImage(resource: photo).size == CGSize(width: 30, height: 20))
    }
}

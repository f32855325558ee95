import AppGroupKit
import Foundation
import LockstepTestSupport
import Testing
@testable import WidgetKit

/// `render --device`, `--appearance` and `--dynamic-type` on the Habits widget extension, a real process, and the
/// sizes behind them, each from Apple's tables (see `ReferenceDevice`).
@Suite struct WidgetDeviceTests {
    /// Renders `family` with `options` and returns the picture and the result.
    func draw(_ fixture: HabitsFixture, _ family: String, _ options: String...) throws -> (svg: String, result: ProcessResult) {
        let file = fixture.root.appendingPathComponent("\(family)-\(UUID().uuidString).svg").path
        let result = try LockstepTestSupport.run("lockstep-widget", ["render", family, "--svg", file] + options, environment: fixture.environment, timeout: 30)
        return ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "", result)
    }

    func size(_ svg: String) -> String? {
        svg.firstMatch(of: /<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="([0-9.]+)" height="([0-9.]+)"/).map { "\($0.1)×\($0.2)" }
    }

    @Test("--device: the family's size on that device, from the HIG's widget tables; the picture says which device")
    func devices() throws {
        let fixture = HabitsFixture()
        try fixture.addHabits()
        // HIG Widgets, "iOS dimensions": 430×932 pt → medium 364×170; 375×667 pt → rectangular 153×68; the default,
        // 393×852 pt → small 158×158.
        let max = try draw(fixture, "systemMedium", "--device", "iPhone 15 Pro Max")
        #expect(max.result.status == 0 && size(max.svg) == "364×170", "\(max.result) \(max.svg.prefix(200))")
        #expect(max.svg.contains("<desc class=\"lockstep-display\">iPhone 15 Pro Max (430×932 pt) · light · large · fullColor</desc>"))
        let se = try draw(fixture, "accessoryRectangular", "--device", "iphone-se")
        #expect(se.result.status == 0 && size(se.svg) == "153×68", "\(se.result)")
        #expect(se.svg.contains("iPhone SE (375×667 pt) · dark · large · vibrant</desc>"), "the Lock Screen is dark")
        let standard = try draw(fixture, "systemSmall")
        #expect(size(standard.svg) == "158×158" && standard.svg.contains("iPhone 15 (393×852 pt) · light · large · fullColor"))
        // Families only on the devices that have them: no systemExtraLarge on a phone, no Home Screen on the watch.
        let extraLarge = try draw(fixture, "systemExtraLarge")
        #expect(extraLarge.result.status == 64 && extraLarge.svg.isEmpty, "\(extraLarge.result)")
        #expect(extraLarge.result.stderr.contains("iPhone 15 has no systemExtraLarge family (its families: systemSmall, systemMedium, systemLarge, accessoryCircular, accessoryRectangular, accessoryInline)."), "\(extraLarge.result)")
        let onWatch = try draw(fixture, "systemSmall", "--device", "Apple Watch 41mm")
        #expect(onWatch.result.status == 64 && onWatch.result.stderr.contains("Apple Watch 41mm has no systemSmall family"), "\(onWatch.result)")
        let lockScreenOnPad = try draw(fixture, "accessoryCircular", "--device", "iPad Air")
        #expect(lockScreenOnPad.result.status == 64 && lockScreenOnPad.result.stderr.contains("iPad Air has no accessoryCircular size: Apple's iPadOS widget table gives none for the Lock Screen's accessories."), "\(lockScreenOnPad.result)")
        let unknown = try draw(fixture, "systemSmall", "--device", "Pixel 8")
        #expect(unknown.result.status == 64 && unknown.result.stderr.contains("'Pixel 8' is not a device Lockstep draws widgets for (one of iPhone 15 Pro Max,"), "\(unknown.result)")
        let missing = try draw(fixture, "systemSmall", "--device")
        #expect(missing.result.status == 64 && missing.result.stderr.contains("'--device' is not followed by a value."), "\(missing.result)")
    }

    @Test("--appearance dark: the view's \\.colorScheme, so its primary text is white; a bad value is refused")
    func appearance() throws {
        let fixture = HabitsFixture()
        try fixture.addHabits()
        func textFills(_ svg: String) -> Set<String> { Set(svg.matches(of: /<tspan[^>]* fill="(#[0-9a-f]{6})"/).map { String($0.1) }) }
        let light = try draw(fixture, "systemMedium")
        let dark = try draw(fixture, "systemMedium", "--appearance", "dark")
        #expect(dark.result.status == 0 && dark.svg.contains("· dark · large · fullColor</desc>"), "\(dark.result)")
        #expect(textFills(light.svg).contains("#000000") && !textFills(light.svg).contains("#ffffff"), "\(textFills(light.svg))")
        #expect(textFills(dark.svg).contains("#ffffff") && !textFills(dark.svg).contains("#000000"), "\(textFills(dark.svg))")
        let bad = try draw(fixture, "systemMedium", "--appearance", "sepia")
        #expect(bad.result.status == 64 && bad.result.stderr.contains("'sepia' is not an appearance (light, dark)."), "\(bad.result)")
    }

    @Test("--dynamic-type: text styles at Apple's size for it (Headline 17 → 21 pt at xxLarge, Title 2 22 → 26)")
    func dynamicType() throws {
        let fixture = HabitsFixture()
        try fixture.addHabits()
        func sizes(_ svg: String) -> Set<String> { Set(svg.matches(of: /<tspan x="[0-9.]+" font-size="([0-9.]+)"/).map { String($0.1) }) }
        // The medium family's texts: "Today's Progress" (headline), "0/3  0%" (title2), the habits (caption).
        let large = try draw(fixture, "systemMedium")
        let bigger = try draw(fixture, "systemMedium", "--dynamic-type", "xxLarge")
        #expect(bigger.result.status == 0 && bigger.svg.contains("· light · xxLarge · fullColor</desc>"), "\(bigger.result)")
        #expect(sizes(large.svg).isSuperset(of: ["17", "22"]), "\(sizes(large.svg))")
        #expect(sizes(bigger.svg).isSuperset(of: ["21", "26"]) && !sizes(bigger.svg).contains("17"), "\(sizes(bigger.svg))")
        let bad = try draw(fixture, "systemMedium", "--dynamic-type", "huge")
        #expect(bad.result.status == 64 && bad.result.stderr.contains("'huge' is not a Dynamic Type size (xSmall, small, medium, large, xLarge, xxLarge, xxxLarge, accessibility1"), "\(bad.result)")
    }

    @Test("The watch's sizes are the HIG Complications tables' (45 mm by default); every device parses by name")
    func watchSizes() throws {
        let watch45 = ReferenceDevice.appleWatch
        #expect(watch45.size(of: .accessoryCircular) == CGSize(width: 50, height: 50))
        #expect(watch45.size(of: .accessoryCorner) == CGSize(width: 38, height: 38))
        #expect(watch45.size(of: .accessoryRectangular) == CGSize(width: 193, height: 82))
        let watch40 = try ReferenceDevice(named: "Apple Watch 40mm")
        #expect(watch40.size(of: .accessoryCircular) == CGSize(width: 42, height: 42) && watch40.size(of: .accessoryRectangular) == CGSize(width: 162, height: 69))
        #expect(watch40.size(of: .systemSmall) == nil && ReferenceDevice.iPhone.size(of: .accessoryCorner) == nil)
        // HIG Widgets, "iPadOS dimensions", 1024×1366 pt canvas: extra large 795×378.5.
        #expect(ReferenceDevice.iPad.size(of: .systemExtraLarge) == CGSize(width: 795, height: 378.5))
        #expect(try ReferenceDevice(named: "watch") == .appleWatch && ReferenceDevice(named: "IPAD") == .iPad)
        for device in ReferenceDevice.all { #expect(try ReferenceDevice(named: device.name) == device) }
        // The modes WidgetKit draws each family in: the Lock Screen vibrant; the Home Screen and the watch face in
        // full colour and accented.
        #expect(WidgetFamily.accessoryInline.renderingModes(on: .iPhone) == [.vibrant])
        #expect(WidgetFamily.systemSmall.renderingModes(on: .iPhone) == [.fullColor, .accented])
        #expect(WidgetFamily.accessoryCorner.renderingModes(on: .appleWatch) == [.fullColor, .accented])
    }
}

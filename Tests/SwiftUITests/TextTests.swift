import Testing
@testable import SwiftUI

/// Text measured with the Inter table: widths come from TextMeasure (the data), the rules from SwiftUI's
/// (wrap at spaces, keep what the line limit and the height allow, truncate the last line with "…").
@MainActor
@Suite struct TextTests {
    let body = Font.body.resolved

    func texts<V: View>(_ view: V, width: CGFloat, height: CGFloat = 400) -> [String] {
        render(view, RenderRequest(size: CGSize(width: width, height: height))).texts
    }

    func textFrame<V: View>(_ view: V, width: CGFloat, height: CGFloat = 400) -> CGRect? {
        placed(view, width: width, height: height).first { $0.what.hasPrefix("Text(") }?.rect
    }

    @Test func oneLineIsAsWideAsItsCharactersAndOneLineHeightTall() throws {
        let width = TextMeasure.width("Hello", body)
        let frame = try #require(textFrame(Text("Hello"), width: 300))
        #expect(abs(frame.width - width) < 0.001)
        // Inter's ascender + descender at 17 points.
        #expect(abs(frame.height - 17 * (2728 + 680) / 2816) < 0.001)
        #expect(width > 30 && width < 50)
    }

    @Test func wrapsAtSpacesWhenTheLineIsTooNarrow() throws {
        let first = TextMeasure.width("Morning", body)
        let whole = TextMeasure.width("Morning walk", body)
        // Wide enough for "Morning" only: two lines, as wide as the wider word.
        let view = Text("Morning walk").frame(width: (first + whole) / 2)
        let frame = try #require(textFrame(view, width: 300))
        #expect(abs(frame.height - 2 * body.lineHeight) < 0.001)
        #expect(abs(frame.width - max(first, TextMeasure.width("walk", body))) < 0.001)
        #expect(texts(view, width: 300) == ["Morning walk"])
    }

    @Test func lineLimitTruncatesTheLastLineWithAnEllipsis() throws {
        let available = TextMeasure.width("Morning walk", body) - 1
        let view = Text("Morning walk").lineLimit(1).frame(width: available)
        let shown = try #require(texts(view, width: 300).first)
        #expect(shown.hasSuffix("…"))
        #expect(shown.hasPrefix("Morning"))
        #expect(TextMeasure.width(Substring(shown), body) <= available + 0.001)
        let frame = try #require(textFrame(view, width: 300))
        #expect(abs(frame.height - body.lineHeight) < 0.001)
    }

    /// A long note from the app's data (20,000 characters) wraps and truncates like a short one: two lines, the
    /// second cut with an ellipsis, in each truncation mode.
    @Test(arguments: [Text.TruncationMode.tail, .head, .middle])
    func aLongNoteTruncates(_ mode: Text.TruncationMode) throws {
        let note = Array(repeating: "walked the dog", count: 1_500).joined(separator: " ")
        let view = Text(note).lineLimit(2).truncationMode(mode).frame(width: 150)
        let shown = try #require(texts(view, width: 300).first)
        #expect(shown.contains("…"))
        #expect(shown.count < 200)
    }

    @Test func reservedLinesMakeShortTextTaller() throws {
        let reserved = try #require(textFrame(Text("Hi").lineLimit(3, reservesSpace: true), width: 300))
        #expect(abs(reserved.height - 3 * body.lineHeight) < 0.001)
        let range = try #require(textFrame(Text("Hi").lineLimit(2...4), width: 300))
        #expect(abs(range.height - 2 * body.lineHeight) < 0.001)
    }

    @Test func theHeightOfferedLimitsTheLines() throws {
        // Room for one and a half lines: one line is kept, truncated.
        let view = Text("one two three four five six seven").frame(width: 60, height: body.lineHeight * 1.5)
        let shown = try #require(texts(view, width: 300).first)
        #expect(shown.hasSuffix("…"))
    }

    @Test func minimumScaleFactorShrinksBeforeTruncating() throws {
        let full = TextMeasure.width("Completed", body)
        let view = Text("Completed").lineLimit(1).minimumScaleFactor(0.5).frame(width: full * 0.8)
        #expect(texts(view, width: 300) == ["Completed"])
        let frame = try #require(textFrame(view, width: 300))
        #expect(frame.width <= full * 0.8 + 0.01)
        #expect(frame.height < body.lineHeight)
    }

    @Test func aWordWiderThanTheLineBreaksBetweenCharacters() throws {
        let view = Text("Supercalifragilistic").frame(width: 60)
        let frame = try #require(textFrame(view, width: 300))
        #expect(frame.width <= 60.001)
        #expect(frame.height > body.lineHeight * 2)
        #expect(texts(view, width: 300) == ["Supercalifragilistic"])
    }

    @Test func fontsSetSizeAndWeight() throws {
        let bold = try #require(textFrame(Text("Streak").font(.headline), width: 300))
        let regular = try #require(textFrame(Text("Streak").font(.body), width: 300))
        // The headline is 17-point semibold: wider than 17-point regular, as tall.
        #expect(bold.width > regular.width)
        #expect(abs(bold.height - regular.height) < 0.001)
        let big = try #require(textFrame(Text("7").font(.system(size: 34, weight: .bold, design: .rounded)), width: 300))
        #expect(abs(big.height - 34 * (2728 + 680) / 2816) < 0.001)
        // monospacedDigit: every digit the widest digit's advance.
        let digits = try #require(textFrame(Text("111").monospacedDigit(), width: 300))
        let plain = try #require(textFrame(Text("111"), width: 300))
        #expect(digits.width > plain.width)
    }

    @Test func concatenationInterpolationAndVerbatim() {
        let count = 3
        let view = VStack {
            Text("Done ") + Text("\(count)").bold() + Text(" of 5")
            Text("\(count) habits, \(0.5, specifier: "%.1f") left")
            Text(verbatim: "%d literally")
            Text("Total: \(Text("9").bold())")
        }
        #expect(texts(view, width: 300) == ["Done 3 of 5", "3 habits, 0.5 left", "%d literally", "Total: 9"])
    }

    @Test func datesFormatInTheEnvironment() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        var environment = EnvironmentValues()
        environment.renderDate = start.addingTimeInterval(2 * 3600 + 15 * 60)
        environment.timeZone = TimeZone(identifier: "UTC")!
        environment.locale = Locale(identifier: "en_US")
        let view = VStack {
            Text(start, style: .relative)
            Text(timerInterval: start...start.addingTimeInterval(3 * 3600), countsDown: true)
            Text(start, style: .time)
            Text(42, format: .number)
        }
        let rendered = render(view, RenderRequest(size: CGSize(width: 300, height: 300), environment: environment))
        #expect(rendered.texts[0] == "2 hr, 15 min")
        #expect(rendered.texts[1] == "45:00")
        #expect(rendered.texts[2].contains("10:13"))
        #expect(rendered.texts[3] == "42")
    }

    @Test func redactedTextIsDrawnAsBarsAndNotListed() {
        let view = VStack {
            Text("Secret").redacted(reason: .placeholder)
            Text("Shown").redacted(reason: .placeholder).unredacted()
        }
        let rendered = render(view, RenderRequest(size: CGSize(width: 200, height: 100)))
        #expect(rendered.texts == ["Shown"])
        #expect(!rendered.svg(title: nil).contains("Secret"))
    }

    @Test func firstTextBaselinesLineUpAcrossSizes() throws {
        let view = HStack(alignment: .firstTextBaseline, spacing: 0) {
            Text("Big").font(.system(size: 34))
            Text("small").font(.system(size: 12))
        }
        let texts = placed(view, width: 300, height: 200).filter { $0.what.hasPrefix("Text(") }.map(\.rect)
        try #require(texts.count == 2)
        // Each text's top plus its ascent (Inter's ascender, 2728 of 2816 units) is the same baseline.
        let ascent = { (size: CGFloat) in size * 2728 / 2816 }
        #expect(abs((texts[0].minY + ascent(34)) - (texts[1].minY + ascent(12))) < 0.001)
        // With center alignment they would not: the small text would sit lower than the baseline.
        let centered = placed(HStack(spacing: 0) {
            Text("Big").font(.system(size: 34))
            Text("small").font(.system(size: 12))
        }, width: 300, height: 200).filter { $0.what.hasPrefix("Text(") }.map(\.rect)
        #expect(abs((centered[0].minY + ascent(34)) - (centered[1].minY + ascent(12))) > 1)
    }

    @Test func textCaseAndMultilineAlignment() {
        #expect(texts(Text("streak").textCase(.uppercase), width: 200) == ["STREAK"])
    }
}

/// `Text("…")` is looked up by the key Xcode extracts into a string catalog: each interpolation its format specifier.
@Suite struct TextCatalogKeyTests {
    @Test func theKeyHasASpecifierPerValueAndNoneForAView() {
        let count = 3, ratio = 0.5
        let key: LocalizedStringKey = "\(count) of \(ratio, specifier: "%.1f") left for \("Ana") at 100%"
        #expect(key.localization?.key == "%lld of %.1f left for %@ at 100%%")
        #expect(key.localization?.formatted("%1$lld to go of %2$.1f for %3$@") == "3 to go of 0.5 for Ana")
        let withImage: LocalizedStringKey = "Tap \(Image(systemName: "star"))"
        #expect(withImage.localization == nil)
        #expect(LocalizedStringKey("plain").localization?.key == "plain")
    }
}

import Testing
@testable import SwiftUI

/// The widget container as WidgetKit asks the renderer for it: overflow (rule `widget.overflow`) and iOS 17's message
/// for a view without a container background.
@MainActor
@Suite struct WidgetContainerTests {
    /// A small widget's request: 158 × 158 pt, 16-pt content margins, the `.widget` background placement.
    private func small(_ message: String? = nil) -> RenderRequest {
        var request = RenderRequest(size: CGSize(width: 158, height: 158), contentMargins: EdgeInsets(top: 16, leading: 16, bottom: 16, trailing: 16),
                                    containerBackground: ContainerBackgroundPlacement("widget"))
        request.missingBackgroundMessage = message
        return request
    }

    @Test func contentTallerThanTheWidgetIsMeasuredPastEachEdge() throws {
        // The 100 × 200 frame is centered in the 126 × 126 area inside the margins: x = 16 + (126 − 100) / 2 = 29,
        // y = 16 + (126 − 200) / 2 = −21, so it reaches 21 pt past the top and 179 − 158 = 21 pt past the bottom.
        let view = Rectangle().fill(Color.blue).frame(width: 100, height: 200).containerBackground(Color.white, for: ContainerBackgroundPlacement("widget"))
        let rendered = render(view, small())
        let overflow = try #require(rendered.overflow)
        #expect(overflow.edges == EdgeInsets(top: 21, leading: 0, bottom: 21, trailing: 0))
        #expect(overflow.views == ["Rectangle"])
        #expect(overflow.summary == "the content is 42 pt too tall: Rectangle reaches past the edges")
    }

    @Test func anInlineAccessoryIsOneRowOfItsFirstImageAndText() {
        // "A single row of text and an optional image" (Apple's WidgetFamily.accessoryInline): the rest is not drawn,
        // and a column that would not fit the row's 26 points does not overflow it.
        var request = RenderRequest(size: CGSize(width: 234, height: 26), containerBackground: ContainerBackgroundPlacement("widget"))
        request.isSingleRow = true
        let view = VStack {
            Text("Title of a long inline accessory that the row truncates")
            HStack { Image(systemName: "star"); Text("Second") }
            Text("Third")
        }
        let rendered = render(view, request)
        #expect(rendered.texts.count == 1 && rendered.texts[0].hasPrefix("Title") && rendered.texts[0].hasSuffix("…"), "\(rendered.texts)")
        #expect(rendered.overflow == nil)
        let drawn = rendered.canvas.placed
        #expect(drawn.contains { $0.what == "Image(star)" } && drawn.allSatisfy { $0.rect.maxY <= 26.5 }, "\(drawn)")
    }

    @Test func aTintIsDrawnInTheWidgetsRenderingModeAsItsOtherColorsAre() {
        // On the Lock Screen (vibrant) every color is white of its brightness: a progress view's and a gauge's tint too.
        func svg(_ view: some View, vibrant: Bool) -> String {
            var environment = EnvironmentValues()
            if vibrant { environment.widgetColorRendering = .vibrant }
            return render(view, RenderRequest(size: CGSize(width: 120, height: 40), environment: environment)).svg(title: nil)
        }
        let progress = ProgressView(value: 0.5).tint(Color.red)
        let gauge = Gauge(value: 0.5) { Text("G") }.tint(Color.red)
        #expect(svg(progress, vibrant: false).contains("#ff3b30") && svg(gauge, vibrant: false).contains("#ff3b30"))
        #expect(!svg(progress, vibrant: true).contains("#ff3b30") && !svg(gauge, vibrant: true).contains("#ff3b30"))
    }

    @Test func contentWithinTheWidgetButPastTheMarginsDoesNotOverflow() {
        // 150 pt is wider than the 126 pt inside the margins but narrower than the 158-pt widget: nothing is cut off.
        let view = Rectangle().frame(width: 150, height: 20).containerBackground(Color.white, for: ContainerBackgroundPlacement("widget"))
        #expect(render(view, small()).overflow == nil)
        // A plain view (no widget placement) is never measured.
        #expect(render(Rectangle().frame(width: 300, height: 20), RenderRequest(size: CGSize(width: 100, height: 100))).overflow == nil)
    }

    @Test func aViewWithoutAContainerBackgroundIsDrawnAsTheSystemsMessage() {
        let message = "Please adopt containerBackground API"
        let bare = render(Text("Hello"), small(message))
        // The texts are still the view's; the picture is the message.
        #expect(bare.texts == ["Hello"] && !bare.hasContainerBackground)
        let svg = bare.svg(title: nil)
        #expect(svg.contains("Please adopt") && !svg.contains(">Hello<"), "\(svg)")
        let adopted = render(Text("Hello").containerBackground(Color.white, for: ContainerBackgroundPlacement("widget")), small(message))
        #expect(adopted.svg(title: nil).contains(">Hello<") && !adopted.svg(title: nil).contains("Please adopt"))
        // The view as iOS 16 drew it, for the gallery beside the message; none when nothing replaced it.
        let plain = bare.withoutMessage?.svg(title: nil)
        #expect(plain?.contains(">Hello<") == true && plain?.contains("Please adopt") == false)
        #expect(adopted.withoutMessage == nil && render(Text("Hello"), small()).withoutMessage == nil)
        // iOS 16 had no content margins: a color fills the whole 158-point widget there.
        let filled = render(Color.red, small(message)).withoutMessage
        #expect(filled?.canvas.placed.map(\.rect) == [CGRect(x: 0, y: 0, width: 158, height: 158)])
    }
}

/// Pictures share one id space once inlined into one page (the gallery) or nested into one picture (a Dynamic
/// Island): each document's gradient, clip and shadow ids are its own.
@MainActor
@Suite struct PictureIDTests {
    private func ids(_ svg: String) -> [String] {
        svg.matches(of: /id="([^"]+)"/).map { String($0.1) }
    }

    @Test func twoPicturesNeverShareAnIdAndEachReferenceFindsItsOwn() throws {
        func picture(_ colors: [Color]) -> String {
            let view = RoundedRectangle(cornerRadius: 8).fill(LinearGradient(colors: colors, startPoint: .top, endPoint: .bottom))
                .shadow(radius: 2).clipShape(Circle())
            return render(view, RenderRequest(size: CGSize(width: 50, height: 50))).svg(title: nil)
        }
        let red = picture([.red, .orange]), blue = picture([.blue, .green])
        let (redIDs, blueIDs) = (ids(red), ids(blue))
        #expect(redIDs.count >= 3 && Set(redIDs).isDisjoint(with: blueIDs), "\(redIDs) \(blueIDs)")
        // Every url(#…) of a picture names one of its own ids.
        for svg in [red, blue] {
            let references = Set(svg.matches(of: /url\(#([^)]+)\)/).map { String($0.1) })
            #expect(!references.isEmpty && references.isSubset(of: Set(ids(svg))), "\(svg)")
        }
        // The same picture twice is the same document: its definitions are the same wherever they are found.
        #expect(picture([.red, .orange]) == red)
    }

    /// Only an id given (`="ID-`) or referred to (`url(#ID-`) is made the document's own; text, other attributes and
    /// other characters are kept byte for byte, and a document without ids is returned as it is.
    @Test func onlyIdsAndTheirReferencesArePrefixed() throws {
        let document = #"<g id="ID-g1" fill="url(#ID-g1)" data-x="x ID-1">Ümlaut ID- 🧘</g><use href="url(#ID-c2)"/>"#
        let unique = Drawing.uniqueIDs(document)
        let prefix = try #require(unique.firstMatch(of: /id="(p[0-9a-f]+-)g1"/)?.1)
        #expect(unique == document.replacingOccurrences(of: #"="ID-"#, with: #"="\#(prefix)"#)
                    .replacingOccurrences(of: "url(#ID-", with: "url(#\(prefix)"))
        #expect(unique.contains(#"data-x="x ID-1">Ümlaut ID- 🧘"#))
        #expect(Drawing.uniqueIDs(#"<g id="a">ID- url(#b)</g>"#) == #"<g id="a">ID- url(#b)</g>"#)
        #expect(Drawing.uniqueIDs(document + " ") != unique && !Drawing.uniqueIDs(document + " ").contains(String(prefix)))
    }
}

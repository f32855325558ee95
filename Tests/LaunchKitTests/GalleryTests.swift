import AppGroupKit
import Foundation
import Glibc
@testable import LaunchKit
import LockstepSystem
import LockstepTestSupport
import Testing

@Suite struct GalleryTests {
    /// A named pipe where a picture belongs is passed over, not opened for reading: reading it would wait for a
    /// writer forever, and `up` writes the gallery at teardown.
    @Test func aFIFOAmongThePicturesIsPassedOver() throws {
        let root = TestSupport.temporaryDirectory("gallery")
        defer { TestSupport.cleanUp(root) }
        let container = GroupsLayout(root: root.path).groupContainer("group.com.example.habits", on: .phone)
        let folder = GroupsLayout.widgetRenders(container: container) + "/HabitsWidget"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try AtomicFile.write("<svg xmlns=\"http://www.w3.org/2000/svg\"><text>2/5 done</text></svg>", to: folder + "/systemSmall.svg")
        #expect(mkfifo(folder + "/systemMedium.svg", 0o644) == 0)
        let page = root.path + "/gallery.html"
        #expect(try Gallery.write(groupsRoot: root.path, to: page) == 2)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("2/5 done"))
        #expect(!html.contains("systemMedium</figcaption>"))
    }

    /// WidgetKit's warnings in a picture (rule `widget.overflow`) are printed under it; one holding markup is not.
    @Test func aPicturesWarningsArePrintedUnderIt() {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\"><desc class=\"lockstep-warning\">K systemSmall: the content is 42 pt too tall &amp; cut [widget.overflow]</desc>"
            + "<desc class=\"lockstep-warning\">x<script>alert(1)</script></desc></svg>"
        let caption = Gallery.warnings(svg)
        #expect(caption == "<br><span class=\"warning\">K systemSmall: the content is 42 pt too tall &amp; cut [widget.overflow]</span>")
        #expect(Gallery.warnings("<svg><title>plain</title></svg>").isEmpty)
    }
}

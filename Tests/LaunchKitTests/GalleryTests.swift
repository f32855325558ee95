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
        #expect(html.contains(Data("<svg xmlns=\"http://www.w3.org/2000/svg\"><text>2/5 done</text></svg>".utf8).base64EncodedString()))
        #expect(!html.contains("systemMedium</figcaption>"))
    }

    /// The renders folder is in a group container any bundle of the group can write: a planted picture is an image
    /// that runs no script, a link is not followed, and the page has a total bound (security-4 gallery findings).
    @Test func plantedPicturesRunNothingAndLinksAreNotFollowed() throws {
        let root = TestSupport.temporaryDirectory("gallery")
        defer { TestSupport.cleanUp(root) }
        let container = GroupsLayout(root: root.path).groupContainer("group.com.example.habits", on: .phone)
        let renders = GroupsLayout.widgetRenders(container: container)
        try FileManager.default.createDirectory(atPath: renders + "/Evil", withIntermediateDirectories: true)
        try AtomicFile.write(#"<svg xmlns="http://www.w3.org/2000/svg"><script>document.title="PWNED"</script></svg>"#, to: renders + "/Evil/systemSmall.svg")
        let secret = root.path + "/secret.txt"
        try AtomicFile.write("root:x:0:0:the secret:/root:/bin/bash\n", to: secret)
        try FileManager.default.createDirectory(atPath: renders + "/Leak", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: renders + "/Leak/systemSmall.svg", withDestinationPath: secret)
        try FileManager.default.createSymbolicLink(atPath: renders + "/LinkedKind", withDestinationPath: renders + "/Evil")
        let page = root.path + "/gallery.html"
        try Gallery.write(groupsRoot: root.path, to: page)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(!html.contains("<script") && !html.contains("<svg"), "\(html)")
        #expect(!html.contains(Data("root:x:0:0".utf8).base64EncodedString().prefix(12)) && !html.contains("LinkedKind"), "\(html)")
        #expect(html.contains("<img src=\"data:image/svg+xml;base64,"))
    }

    @Test func thePageHasATotalBound() throws {
        let root = TestSupport.temporaryDirectory("gallery")
        defer { TestSupport.cleanUp(root) }
        let renders = GroupsLayout.widgetRenders(container: GroupsLayout(root: root.path).groupContainer("group.x.y", on: .phone))
        let picture = "<svg xmlns=\"http://www.w3.org/2000/svg\">" + String(repeating: " ", count: 3 << 20) + "</svg>"
        for index in 0..<12 {
            try FileManager.default.createDirectory(atPath: renders + "/K\(index)", withIntermediateDirectories: true)
            try AtomicFile.write(picture, to: renders + "/K\(index)/systemSmall.svg")
        }
        let page = root.path + "/gallery.html"
        try Gallery.write(groupsRoot: root.path, to: page)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.components(separatedBy: "<img ").count - 1 == 10, "ten pictures of 3 MB fit in 32 MB")
        #expect(html.contains("2 more pictures are left out: the page holds at most 32 MB of pictures."))
    }

    /// A kind folder's name and a preview's title are any bundle's to choose: neither leaves its attribute or caption,
    /// and a preview is captioned by its own title.
    @Test func namesAndTitlesStayText() throws {
        let root = TestSupport.temporaryDirectory("gallery")
        defer { TestSupport.cleanUp(root) }
        let renders = GroupsLayout.widgetRenders(container: GroupsLayout(root: root.path).groupContainer("group.com.example.habits", on: .phone))
        let planted = renders + "/x\" onerror=\"alert(1)"
        try FileManager.default.createDirectory(atPath: planted, withIntermediateDirectories: true)
        try AtomicFile.write("<svg xmlns=\"http://www.w3.org/2000/svg\"/>", to: planted + "/systemSmall.svg")
        try FileManager.default.createDirectory(atPath: renders + "/Previews", withIntermediateDirectories: true)
        try AtomicFile.write("<svg xmlns=\"http://www.w3.org/2000/svg\"><title>Card_Previews Big &amp; \" bold</title></svg>",
                             to: renders + "/Previews/1-Card-Previews-1.svg")
        let page = root.path + "/gallery.html"
        #expect(try Gallery.write(groupsRoot: root.path, to: page) == 2)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(!html.contains("\" onerror=") && html.contains("x&quot; onerror=&quot;alert(1)"), "\(html)")
        #expect(html.contains("<figcaption>Card_Previews Big &amp; &quot; bold"), "\(html)")
    }

    /// WidgetKit's warnings in a picture (rule `widget.overflow`) are printed under it; one holding markup is not.
    @Test func aPicturesWarningsArePrintedUnderIt() {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\"><desc class=\"lockstep-warning\">K systemSmall: the content is 42 pt too tall &amp; cut [widget.overflow]</desc>"
            + "<desc class=\"lockstep-warning\">x<script>alert(1)</script></desc></svg>"
        let caption = Gallery.descriptions(svg, of: "lockstep-warning", as: "warning")
        #expect(caption == "<br><span class=\"warning\">K systemSmall: the content is 42 pt too tall &amp; cut [widget.overflow]</span>")
        #expect(Gallery.descriptions("<svg><title>plain</title></svg>", of: "lockstep-warning", as: "warning").isEmpty)
    }

    /// A family's other rendering modes (`<family>.<mode>.svg`) sit right after it, and each picture's caption names
    /// the device it was drawn on.
    @Test func modesSitSideBySideWithTheirDevice() throws {
        let root = TestSupport.temporaryDirectory("gallery")
        defer { TestSupport.cleanUp(root) }
        let renders = GroupsLayout.widgetRenders(container: GroupsLayout(root: root.path).groupContainer("group.example", on: .phone))
        try FileManager.default.createDirectory(atPath: renders + "/K", withIntermediateDirectories: true)
        for name in ["accessoryInline", "systemSmall.accented", "accessoryCircular", "systemSmall"] {
            let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\"><desc class=\"lockstep-display\">iPhone 15 (393×852 pt) · light · large · \(name)</desc></svg>"
            try AtomicFile.write(svg, to: renders + "/K/\(name).svg")
        }
        let html = Gallery.html(Gallery.pictures(groupsRoot: root.path))
        let captions = html.matches(of: /<figcaption>([^<]*)</).map { String($0.1) }
        #expect(captions == ["systemSmall", "systemSmall · accented", "accessoryCircular", "accessoryInline"], "\(captions)")
        #expect(html.contains("<span class=\"display\">iPhone 15 (393×852 pt) · light · large · systemSmall.accented</span>"))
    }
}

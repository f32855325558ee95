import Testing
import UniformTypeIdentifiers

/// The system's common types with their conformances, extensions and MIME types, and an app's own types.
@Suite struct UTTypeTests {
    @Test func systemTypesConformThroughTheirSupertypes() {
        #expect(UTType.png.conforms(to: .image) && UTType.png.conforms(to: .data) && UTType.png.conforms(to: .item))
        #expect(!UTType.png.conforms(to: .text))
        #expect(UTType.utf8PlainText.conforms(to: .plainText) && UTType.utf8PlainText.conforms(to: .content))
        #expect(UTType.json.isSubtype(of: .text) && UTType.text.isSupertype(of: .json) && !UTType.json.isSubtype(of: .json))
        #expect(UTType("public.jpeg") == .jpeg && UTType("com.example.nothing") == nil)
    }

    @Test func extensionsAndMIMETypesFindTheirTypes() {
        #expect(UTType(filenameExtension: "JPG") == .jpeg)
        #expect(UTType(filenameExtension: "png", conformingTo: .text) == nil)
        #expect(UTType(mimeType: "application/json") == .json)
        let unknown = UTType(filenameExtension: "donutz")
        #expect(unknown?.isDynamic == true && unknown?.conforms(to: .data) == true && unknown?.preferredFilenameExtension == "donutz")
    }

    @Test func anAppsOwnTypesConformToTheirParents() {
        let donut = UTType(exportedAs: "com.example.donut", conformingTo: .json)
        #expect(donut.identifier == "com.example.donut" && donut.conforms(to: .text) && !donut.conforms(to: .image))
        let box = UTType(exportedAs: "com.example.donut-box", conformingTo: donut)
        #expect(box.conforms(to: donut) && box.conforms(to: .json) && box.conforms(to: .data))
        #expect(UTType(exportedAs: "com.example.thing").conforms(to: .data))
    }
}

@testable import BuildKit
import Testing

/// The build copy records each file-scope `PreviewProvider` on its own line (Xcode finds them by reflection, which
/// Linux lacks), and leaves every other declaration and every line number as it was.
@Suite struct PreviewRecordsTests {
    @Test func aFileScopeProviderIsRecordedOnItsOwnLine() {
        let source = """
            import SwiftUI
            #if DEBUG
            struct Card_Previews: PreviewProvider {
                static var previews: some View { Text("Hi") }
            }
            #endif
            """
        let lines = PreviewRecords.record(source, fileID: "Widgets/Card.swift").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 6)
        #expect(lines[2].hasPrefix("@section(\"lockstep_previews\") @used private let _lockstepPreviewRecord3"))
        #expect(lines[2].contains("_LockstepPreview(provider: Card_Previews.self) }, fileID: \"Widgets/Card.swift\", line: 3) }; struct Card_Previews: PreviewProvider {"))
        #expect(lines[3] == "    static var previews: some View { Text(\"Hi\") }")
    }

    @Test func otherDeclarationsAreLeftAlone() {
        let source = """
            struct Outer {
                struct Nested_Previews: PreviewProvider {}
            }
            @available(iOS 17, *)
            struct Attributed_Previews: PreviewProvider {}
            struct Generic<T>: PreviewProvider {}
            struct NotAPreview: View, PreviewProviderLike {}
            /*
            struct Commented_Previews: PreviewProvider {}
            */
            let text = \"\"\"
            struct Quoted_Previews: PreviewProvider {}
            \"\"\"
            """
        #expect(PreviewRecords.record(source, fileID: "M/F.swift") == source)
    }

    @Test func modifiersAndQualifiedNamesAreRead() {
        #expect(PreviewRecords.providerName("public final class A_Previews: NSObject, SwiftUI.PreviewProvider {") == "A_Previews")
        #expect(PreviewRecords.providerName("private enum B : PreviewProvider {") == "B")
        #expect(PreviewRecords.providerName("struct C: View {") == nil)
    }
}

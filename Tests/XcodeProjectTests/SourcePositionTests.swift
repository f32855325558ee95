@testable import BundleKit
import Testing

@Suite struct SourcePositionTests {
    /// The line index answers as the scan from the start of the file does, at every offset (the end included), for
    /// texts with blank lines, a leading and a trailing newline, and none.
    @Test(arguments: ["", "\n", "a", "ab\ncd\n\nef", "\n\nx = 1;\n  y = 2;\n", "no newline at all"])
    func lineIndexAgreesWithTheScan(_ text: String) {
        let bytes = Array(text.utf8)
        let index = SourcePosition.LineIndex(bytes)
        for offset in 0...bytes.count {
            #expect(index.lineAndColumn(of: offset) == SourcePosition.lineAndColumn(of: offset, in: bytes), "offset \(offset)")
        }
    }
}

import Foundation
import LockstepFoundation
import Testing

/// Foundation's names Linux lacks, which LockstepFoundation adds.
@Suite struct FoundationGapTests {
    @Test func localizedStandardSortsAsTheFilesAppDoes() {
        let names = ["b10", "a2", "B1", "a10", "A1"]
        let expected = ["A1", "a2", "a10", "B1", "b10"]
        #expect(names.sorted(using: String.StandardComparator.localizedStandard) == expected)
        #expect(names.sorted(using: .localizedStandard) == expected)
        #expect(names.sorted(using: String.LocalizedStandardComparator(order: .reverse)) == expected.reversed())
        struct Item { var name: String }
        let items = names.map(Item.init).sorted(using: KeyPathComparator(\Item.name, comparator: .localizedStandard))
        #expect(items.map(\.name) == expected)
    }

    @Test func outsideASimulatedProcessTheFoldersAreFoundations() {
        #expect(URL.documentsDirectory == FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first)
        #expect(URL.cachesDirectory == FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first)
        #expect(URL.applicationSupportDirectory == FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first)
    }
}

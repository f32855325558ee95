import AppGroupKit
import BundleKit
import Foundation
import LockstepSystem
import LockstepTestSupport
import Testing

/// The crash the fuzz loop found: swift-corelibs-foundation's `PropertyListSerialization` segfaults on a binary plist
/// holding a set of dictionaries (45 bytes). Every reader refuses such a plist with its module's error instead.
@Suite struct PropertyListSetTests {
    /// `bplist00` whose root dictionary maps "a" to a set holding an empty dictionary.
    static let setOfDictionary: [UInt8] = {
        var bytes = Array("bplist00".utf8)
        let objects: [[UInt8]] = [[0xD1, 1, 2], [0x51, 0x61], [0xC1, 3], [0xD0]]
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = UInt8(bytes.count)
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]  // unused, offset size 1, reference size 1
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)] + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 0, 0, 0, 0, table]
        return bytes
    }()

    @Test func theGuardFindsTheSetAndNothingElse() throws {
        #expect(BinaryPropertyList.containsSet(Self.setOfDictionary))
        let ordinary = try PropertyListSerialization.data(fromPropertyList: ["a": [["b": 1]], "c": Data([1])], format: .binary, options: 0)
        #expect(!BinaryPropertyList.containsSet([UInt8](ordinary)))
        #expect(!BinaryPropertyList.containsSet(Array("<?xml version=\"1.0\"?><plist/>".utf8)))
        // A trailer that lies about its sizes is left to Foundation, which refuses it without crashing.
        var lying = Self.setOfDictionary
        lying[lying.count - 1] = 0xFF
        #expect(!BinaryPropertyList.containsSet(lying))
    }

    @Test func anInfoPlistHoldingASetIsRefused() {
        #expect(throws: BundleError.self) { try PropertyListFile.dictionary(Self.setOfDictionary, path: "X.app/Info.plist") }
    }

    @Test func lockstepCheckExitsTwoInsteadOfCrashing() throws {
        let result = try checkBuiltApp(infoPlist: Data(Self.setOfDictionary)).result
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("Info.plist"), "\(result)")
    }

    @Test func aDefaultsSuiteHoldingASetIsRefused() throws {
        let groups = TestSupport.temporaryDirectory("proof-set-suite")
        defer { TestSupport.cleanUp(groups) }
        let defaults = try Proof.suite(groups.path)
        try defaults.set(1, forKey: "a")
        try defaults.synchronize()
        try Data(Self.setOfDictionary).write(to: URL(fileURLWithPath: defaults.plistPath))
        #expect(throws: AppGroupError.self) { try Proof.suite(groups.path).dictionaryRepresentation() }
    }
}

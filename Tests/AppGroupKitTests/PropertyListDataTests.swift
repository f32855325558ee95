import Foundation
import Testing
@testable import AppGroupKit

/// `PropertyList.data(_:format:)` writes property lists without Foundation's bridging (which a statically linked
/// executable lacks for arrays). These tests run in the dynamically linked test build, where Foundation's writer
/// works, and hold the hand-written one to it: the same XML bytes, the same binary size (the size WatchConnectivity's
/// limits are measured in), and the same refusals.
@Suite struct PropertyListDataTests {
    static var samples: [String: Any] {
        var samples = BinaryPlistCodecTests.samples
        samples["escapes"] = "<a href=\"x\">&amp; 'q'</a>\t\n\r"
        samples["negative zero"] = -0.0
        samples["tiny real"] = Double.leastNonzeroMagnitude
        samples["fraction"] = 0.1
        samples["fractional date"] = Date(timeIntervalSinceReferenceDate: -0.75)
        samples["long data"] = Data((0..<200).map { UInt8($0) })
        // Keys that sort differently by UTF-16 units than by Unicode scalars: U+FF5E against U+1D11E (a surrogate pair).
        samples["～ fullwidth tilde"] = 1
        samples["𝄞 clef"] = 2
        samples["Zebra"] = 3
        samples["apple"] = 4
        // Data lines at every depth, up to past the indent cap of 8.
        var nested: Any = Data((0..<100).map { UInt8($0 * 7 % 256) })
        for depth in 0..<10 { nested = depth % 2 == 0 ? [nested, Data(repeating: UInt8(depth), count: depth * 5)] as [Any] : ["in": nested] as [String: Any] }
        samples["deep data"] = nested
        return samples
    }

    @Test func xmlIsWhatFoundationWrites() throws {
        for (key, value) in Self.samples {
            let ours = try #require(PropertyList.data([key: value], format: .xml), "\(key)")
            let theirs = try PropertyListSerialization.data(fromPropertyList: [key: value], format: .xml, options: 0)
            #expect(ours == theirs, "\(key):\n\(String(decoding: ours, as: UTF8.self))\nFoundation:\n\(String(decoding: theirs, as: UTF8.self))")
        }
        #expect(PropertyList.data(Self.samples, format: .xml) == (try PropertyListSerialization.data(fromPropertyList: Self.samples, format: .xml, options: 0)))
        #expect(PropertyList.data("top-level string", format: .xml) == (try PropertyListSerialization.data(fromPropertyList: "top-level string", format: .xml, options: 0)))
    }

    @Test func binaryIsAsLongAsFoundationsAndReadsTheSame() throws {
        for (key, value) in Self.samples {
            let ours = try #require(PropertyList.data([key: value], format: .binary), "\(key)")
            let theirs = try PropertyListSerialization.data(fromPropertyList: [key: value], format: .binary, options: 0)
            #expect(ours.count == theirs.count, "\(key)")
            let read = try PropertyListSerialization.propertyList(from: ours, options: [], format: nil)
            #expect(PropertyList.isEqual(PropertyList.canonicalize(read), [key: value]), "\(key)")
        }
        // Around the object counts where references grow from 1 to 2 bytes.
        for count in 252...258 {
            let array = (0..<count).map { $0 }
            #expect(PropertyList.data(array, format: .binary)?.count == (try PropertyListSerialization.data(fromPropertyList: array, format: .binary, options: 0)).count, "\(count)")
        }
    }

    /// The application context the Habits app sends its watch: the value `lockstep up` refused when linked statically.
    @Test func theHabitsContextEncodes() throws {
        let habits = (0..<300).map { ["name": "Habit \($0)", "emoji": "🧘", "completed": $0 % 2 == 0] as [String: Any] }
        for context in [["day": "2026-11-22", "habits": habits] as [String: Any], ["day": "2026-11-22", "habits": [[String: Any]]()]] {
            let xml = try #require(PropertyList.data(context, format: .xml))
            #expect(xml == (try PropertyListSerialization.data(fromPropertyList: context, format: .xml, options: 0)))
            let binary = try #require(PropertyList.data(context, format: .binary))
            #expect(binary.count == (try PropertyListSerialization.data(fromPropertyList: context, format: .binary, options: 0)).count)
        }
    }

    @Test func nonPropertyListsAreRefused() {
        let refused: [Any] = [
            NSObject(), NSNull(), Set(["a"]), [1: "integer key"], ["k": NSObject()] as [String: Any], ["a", NSObject()] as [Any],
            [["deep": [Set([1])]]] as [Any],
        ]
        // 2⁶⁴−1 is a property-list integer (a 16-byte one in a binary plist): kept, not refused (OddSuiteValueTests).
        #expect(PropertyList.data(UInt64.max, format: .binary) != nil)
        #expect(PropertyList.data(NSNumber(value: UInt64.max), format: .xml) != nil)
        for value in refused {
            #expect(PropertyList.data(value, format: .xml) == nil, "\(value)")
            #expect(PropertyList.data(value, format: .binary) == nil, "\(value)")
        }
    }

    /// Other forms of property lists are written in their canonical form.
    @Test func otherFormsAreCanonicalized() throws {
        let other: [String: Any] = ["int32": Int32(-5), "number": NSNumber(value: 7), "unsigned": NSNumber(value: UInt64(9)), "bool": NSNumber(value: true), "strings": ["a", "b"], "float": Float(0.5)]
        let canonical: [String: Any] = ["int32": -5, "number": 7, "unsigned": 9, "bool": true, "strings": ["a", "b"], "float": 0.5]
        #expect(PropertyList.data(other, format: .xml) == PropertyList.data(canonical, format: .xml))
        // Binary plists list a dictionary's entries in its (hash) order: compare what they read as.
        let binary = try #require(PropertyList.data(other, format: .binary))
        #expect(PropertyList.isEqual(binary.withUnsafeBytes { BinaryPlistCodec.decode($0) }, canonical))
    }
}

import Foundation
import Testing
@testable import AppGroupKit
import LockstepSystem
import LockstepTestSupport

/// The hand-written `bplist00` writer and reader must agree with Foundation's `PropertyListSerialization` both
/// ways: what it writes, Foundation reads as the same value (so other languages' readers work too), and what
/// Foundation writes, it reads as Foundation does — or declines, so that Foundation decides.
@Suite struct BinaryPlistCodecTests {
    static let date = Date(timeIntervalSinceReferenceDate: 722_000_000.25)

    /// Values covering every marker and size class the writer emits (computed: `Any` is not Sendable).
    static var samples: [String: Any] { [
        "zero": 0, "small": 14, "byte": 255, "two bytes": 256, "65535": 65_535, "four bytes": 65_536,
        "UInt32.max": 4_294_967_295, "eight bytes": 4_294_967_296, "Int.max": Int.max, "Int.min": Int.min,
        "minus one": -1, "negative": -1_234_567,
        "pi": 3.141_592_653_589_793, "negative real": -0.5, "huge real": 1e300, "infinity": Double.infinity,
        "true": true, "false": false,
        "empty": "", "ascii": "Meditate", "fourteen chars": "abcdefghijklmn", "fifteen chars": "abcdefghijklmno",
        "long ascii": String(repeating: "x", count: 300),
        "non-ASCII": "Café ☕️ 日本語", "emoji": "👩‍👩‍👧 surrogate pairs 𝄞", "long non-ASCII": String(repeating: "é", count: 70_000),
        "date": date, "old date": Date(timeIntervalSince1970: -86_400 * 365 * 40),
        "data": Data([0, 1, 2, 255]), "long data": Data(repeating: 7, count: 1_000), "empty data": Data(),
        "array": ["a", 1, true, 2.5, date] as [Any], "empty array": [Any](),
        "nested": ["inner": ["deep": [1, 2, 3]], "list": [["k": "v"]]] as [String: Any],
        "empty dictionary": [String: Any](),
        "key.with.dots": "dots", "ключ": "non-ASCII key",
    ] }

    /// An increment's record takes a shortcut past the generic writer; it must write the very same bytes.
    @Test func oneIntegerRecordMatchesTheGenericWriter() throws {
        let keys = ["counter", "", "fourteen chars", "fifteen chars!!", "ключ", String(repeating: "k", count: 300)]
        let values = [0, 1, 255, 256, 65_536, 4_294_967_296, Int.max, Int.min, -1]
        for key in keys {
            for value in values {
                for pid in [1, 4_194_304, Int(Int32.max)] {
                    let generic = BinaryPlistCodec.encode(entries: [("pid", pid), ("set", [key: value])], prefix: 8)
                    #expect(BinaryPlistCodec.encode(pid: pid, setting: key, to: value, prefix: 8) == generic, "\(key) = \(value)")
                }
            }
        }
        let record = JournalRecord(pid: 42, sets: ["counter": 7], removes: [])
        let bytes = try record.encoded()
        let (decoded, size) = try #require(JournalRecord.decode(bytes, at: 0))
        #expect(size == bytes.count && decoded.pid == 42 && decoded.sets["counter"] as? Int == 7 && decoded.removes.isEmpty)
    }

    /// An increment patches the previous increment's record in place; every value must give the very record a
    /// fresh encoding gives, sealed with its own length and checksum.
    @Test func patchedIncrementRecordMatchesAFreshOne() throws {
        let values = [0, 1, 254, 255, 256, 65_535, 65_536, 4_294_967_295, 4_294_967_296, Int.max, Int.min, -1, 7]
        for key in ["counter", "", "fifteen chars!!", "ключ", String(repeating: "k", count: 300)] {
            var record: IntegerSetRecord?
            for value in values + values.reversed() {
                if record?.fits(DefaultsKey(key), value) == true { record!.set(value) } else { record = IntegerSetRecord(key: DefaultsKey(key), value: value) }
                let fresh = try JournalRecord(pid: JournalRecord.currentProcess, sets: [DefaultsKey(key): value], removes: []).encoded()
                #expect(record?.bytes == fresh, "\(key) = \(value)")
                let bytes = try #require(record?.bytes)
                let (decoded, size) = try #require(JournalRecord.decode(bytes, at: 0))
                #expect(size == fresh.count && decoded.sets[DefaultsKey(key)] as? Int == value)
            }
        }
    }

    /// A patch moves the checksum by the bytes that changed (CRC-32 is linear) instead of recomputing it: over long
    /// runs of patches, in every width, each record must still carry the CRC-32 of its payload.
    @Test func patchedChecksumsStayTheCRCOfThePayload() throws {
        var generator = SeededGenerator(seed: 30)
        let ranges: [ClosedRange<Int>] = [0...255, 256...65_535, 65_536...4_294_967_295, 4_294_967_296...Int.max, Int.min...(-1)]
        for key in ["counter", String(repeating: "k", count: 300)] {
            for range in ranges {
                var record = IntegerSetRecord(key: DefaultsKey(key), value: range.lowerBound)
                var value = range.lowerBound
                for step in 0..<400 {
                    // Consecutive values (mostly one byte changes, sometimes a carry) and jumps anywhere in the width.
                    value = step % 3 == 0 ? Int.random(in: range, using: &generator) : (value == range.upperBound ? range.lowerBound : value + 1)
                    #expect(record.fits(DefaultsKey(key), value))
                    record.set(value)
                    let bytes = record.bytes
                    let payload = Array(bytes[JournalRecord.headerSize...])
                    let sealed = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[4 + $1]) << UInt32(8 * $1) }
                    #expect(sealed == CRC32.checksum(payload), "\(key) = \(value)")
                    #expect(JournalRecord.decode(bytes, at: 0)?.0.sets[DefaultsKey(key)] as? Int == value)
                }
            }
        }
    }

    /// A replayed record is read through its writer's previous one only when it differs from it in the integer's
    /// bytes alone and carries the CRC-32 of its payload: anything else (a damaged checksum or integer, another
    /// writer, key or width, a record cut short) is left to the general path.
    @Test func aReplayedRecordIsAdoptedOnlyWhenOnlyItsIntegerChanged() throws {
        var model = IntegerSetRecord(pid: 4242, key: "counter", value: 5)
        for value in [6, 7, 200, 0, 255] {
            let next = IntegerSetRecord(pid: 4242, key: "counter", value: value).bytes
            let adopted = next.withUnsafeBytes { model.adopt($0) }
            #expect(adopted?.size == next.count && adopted?.value == value)
            #expect(model.bytes == next)
        }
        let next = IntegerSetRecord(pid: 4242, key: "counter", value: 9).bytes
        var damaged = next
        damaged[damaged.count - 32 - 7 - 1] ^= 0x10  // the integer, checksum left as it was
        var badChecksum = next
        badChecksum[5] ^= 1
        for candidate in [damaged, badChecksum, IntegerSetRecord(pid: 4243, key: "counter", value: 9).bytes,
                          IntegerSetRecord(pid: 4242, key: "counteR", value: 9).bytes,
                          IntegerSetRecord(pid: 4242, key: "counter", value: 300).bytes, Array(next.dropLast())] {
            #expect(candidate.withUnsafeBytes { model.adopt($0) } == nil)
        }
        // A record followed by more bytes (the next record) is read alone.
        let adopted = (next + [1, 2, 3]).withUnsafeBytes { model.adopt($0) }
        #expect(adopted?.size == next.count && adopted?.value == 9)
    }

    /// Replaying takes a shortcut for exactly those records; it must read what the generic reader reads, and decline
    /// everything else (other shapes, non-ASCII keys, Foundation's own bytes for the same dictionary).
    @Test func oneIntegerRecordReaderMatchesTheGenericReader() throws {
        let keys = ["counter", "", "fifteen chars!!", String(repeating: "k", count: 300), "ключ"]
        for key in keys {
            for value in [0, 255, 65_536, 4_294_967_296, Int.max, Int.min, -1] {
                let bytes = BinaryPlistCodec.encode(pid: 4_194_304, setting: key, to: value, prefix: 0)
                let fast = bytes.withUnsafeBytes { BinaryPlistCodec.decodeOneIntegerSet($0) }
                let generic = try #require(bytes.withUnsafeBytes { JournalRecord(payload: $0) })
                if key == "ключ" {
                    #expect(fast == nil, "non-ASCII keys are UTF-16: the generic reader's")
                    continue
                }
                let (pid, readKey, readValue) = try #require(fast, "\(key) = \(value)")
                #expect(pid == Int(generic.pid) && readKey == key && readValue == value && generic.sets[DefaultsKey(key)] as? Int == value)
            }
        }
        let others: [[UInt8]] = [
            try #require(BinaryPlistCodec.encode(entries: [("pid", 1), ("set", ["a": "text"])])),
            try #require(BinaryPlistCodec.encode(entries: [("pid", 1), ("set", ["a": 1, "b": 2])])),
            try #require(BinaryPlistCodec.encode(entries: [("pid", 1), ("remove", ["a"])])),
            try #require(BinaryPlistCodec.encode(entries: [("set", ["a": 1]), ("pid", 1)])),
            [UInt8](try PropertyListSerialization.data(fromPropertyList: ["pid": 1, "set": ["a": 1]], format: .binary, options: 0)),
        ]
        for bytes in others {
            let fast = bytes.withUnsafeBytes { BinaryPlistCodec.decodeOneIntegerSet($0) }
            if let fast {
                // Foundation may lay the same dictionary out the same way; then it must read the same.
                #expect(fast.pid == 1 && fast.key == "a" && fast.value == 1)
            }
        }
        // Every truncation of a valid record is declined, never misread.
        let valid = BinaryPlistCodec.encode(pid: 7, setting: "counter", to: 99, prefix: 0)
        for length in 0..<valid.count {
            #expect(Array(valid.prefix(length)).withUnsafeBytes { BinaryPlistCodec.decodeOneIntegerSet($0) } == nil)
        }
    }

    @Test func foundationReadsWhatTheWriterWrites() throws {
        for (key, value) in Self.samples {
            let bytes = try #require(BinaryPlistCodec.encode([key: value]))
            let decoded = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
            let canonical = try #require(PropertyList.canonicalize(decoded) as? [String: Any])
            #expect(PropertyList.isEqual(canonical, [key: value]), "\(key): Foundation read \(canonical)")
        }
        let all = try #require(BinaryPlistCodec.encode(Self.samples))
        let decoded = try PropertyListSerialization.propertyList(from: Data(all), options: [], format: nil)
        #expect(PropertyList.isEqual(PropertyList.canonicalize(decoded), Self.samples))
    }

    @Test func theReaderAgreesWithFoundationOnWhatFoundationWrites() throws {
        for (key, value) in Self.samples {
            let data = try PropertyListSerialization.data(fromPropertyList: [key: value], format: .binary, options: 0)
            let fast = try #require(data.withUnsafeBytes { BinaryPlistCodec.decode($0) }, "\(key): declined")
            #expect(PropertyList.isEqual(fast, [key: value]), "\(key): read \(fast)")
        }
        let data = try PropertyListSerialization.data(fromPropertyList: Self.samples, format: .binary, options: 0)
        #expect(PropertyList.isEqual(data.withUnsafeBytes { BinaryPlistCodec.decode($0) }, Self.samples))
    }

    @Test func theReaderReadsWhatTheWriterWrites() throws {
        let bytes = try #require(BinaryPlistCodec.encode(Self.samples))
        #expect(PropertyList.isEqual(bytes.withUnsafeBytes { BinaryPlistCodec.decode($0) }, Self.samples))
        // Booleans stay booleans and integers integers (no bridging through NSNumber).
        let decoded = try #require(bytes.withUnsafeBytes { BinaryPlistCodec.decode($0) } as? [String: Any])
        #expect(type(of: decoded["true"]!) == Bool.self)
        #expect(type(of: decoded["zero"]!) == Int.self)
    }

    @Test func aJournalRecordIsAPlistFoundationReads() throws {
        let record = JournalRecord(pid: 4242, sets: ["counter": 7, "name": "Zoë", "ratio": -2.25], removes: ["old.key"])
        let bytes = try record.encoded()
        let payload = Data(bytes[JournalRecord.headerSize...])
        let decoded = try #require(PropertyList.canonicalize(
            try PropertyListSerialization.propertyList(from: payload, options: [], format: nil)) as? [String: Any])
        #expect(PropertyList.isEqual(decoded, ["pid": 4242, "set": ["counter": 7, "name": "Zoë", "ratio": -2.25], "remove": ["old.key"]] as [String: Any]))
        let (read, size) = try #require(JournalRecord.decode(bytes, at: 0))
        #expect(size == bytes.count)
        #expect(read.pid == 4242)
        #expect(PropertyList.isEqual(read.sets, record.sets))
        #expect(read.removes == ["old.key"])
    }

    /// Records written by an older Lockstep (Foundation's writer) still replay.
    @Test func aRecordWrittenByFoundationStillDecodes() throws {
        let payload = [UInt8](try PropertyListSerialization.data(
            fromPropertyList: ["pid": 9, "set": ["k": "v", "when": Self.date], "remove": ["gone"]] as [String: Any], format: .binary, options: 0))
        var bytes: [UInt8] = []
        for value in [UInt32(payload.count), CRC32.checksum(payload)] {
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
        }
        bytes += payload
        let (record, _) = try #require(JournalRecord.decode(bytes, at: 0))
        #expect(record.pid == 9)
        #expect(PropertyList.isEqual(record.sets, ["k": "v", "when": Self.date] as [DefaultsKey: Any]))
        #expect(record.removes == ["gone"])
    }

    /// What the reader declines goes to Foundation: an XML plist, a lone UTF-16 surrogate, a 128-bit integer.
    @Test func theReaderDeclinesWhatItDoesNotTakeAndFoundationDecides() throws {
        let xml = try PropertyListSerialization.data(fromPropertyList: ["k": 1], format: .xml, options: 0)
        #expect(xml.withUnsafeBytes { BinaryPlistCodec.decode($0) } == nil)
        #expect(PropertyList.isEqual(PropertyList.decodeDictionary(xml), ["k": 1] as [DefaultsKey: Any]))
        // {"k": "\u{D800}"}: one UTF-16 unit, a lone high surrogate.
        var lone = try #require(BinaryPlistCodec.encode(["k": "é"]))
        let unit = try #require(lone.firstIndex(of: 0x61))  // "é" is 0x00E9 → bytes 00 E9 after marker 0x61
        lone[unit + 1] = 0xD8
        lone[unit + 2] = 0x00
        #expect(lone.withUnsafeBytes { BinaryPlistCodec.decode($0) } == nil)
        // Random damage never traps the reader, and whatever it accepts Foundation reads the same way (or refuses).
        var generator = SeededGenerator(seed: 0x5EED)
        var samples = Self.samples
        samples["long non-ASCII"] = nil  // keeps the loop fast
        let original = try #require(BinaryPlistCodec.encode(samples))
        for _ in 0..<2_000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            guard let fast = bytes.withUnsafeBytes({ BinaryPlistCodec.decode($0) }) as? [String: Any],
                  !BinaryPropertyList.containsSet(bytes),
                  let foundation = PropertyList.canonicalize(
                    (try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)) as Any) as? [String: Any]
            else { continue }
            // A damaged real may be a NaN, which equals nothing.
            func nan(_ value: Any?) -> Bool { (value as? Double)?.isNaN == true || (value as? Date)?.timeIntervalSinceReferenceDate.isNaN == true }
            let differing = Set(fast.keys).union(foundation.keys).filter {
                !PropertyList.isEqual(fast[$0], foundation[$0]) && !(nan(fast[$0]) && nan(foundation[$0]))
            }
            #expect(differing.isEmpty, "\(differing.map { "\($0): \(String(describing: fast[$0]).prefix(80)) vs \(String(describing: foundation[$0]).prefix(80))" })")
        }
    }

    /// Random records of the shapes increments and sets write, compared with Foundation both ways.
    @Test func randomValuesRoundTripLikeFoundation() throws {
        var generator = SeededGenerator(seed: 42)
        func randomString() -> String {
            let alphabet = Array("abcXYZ019 .-_éü日本☕️𝄞")
            return String((0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
        func randomValue(_ depth: Int) -> Any {
            switch Int.random(in: 0..<(depth < 2 ? 8 : 6), using: &generator) {
            case 0: return Int.random(in: Int.min...Int.max, using: &generator) >> Int.random(in: 0...63, using: &generator)
            case 1: return Double.random(in: -1e12...1e12, using: &generator)
            case 2: return Bool.random(using: &generator)
            case 3: return randomString()
            case 4: return Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -1_000_000_000...1_000_000_000, using: &generator)))
            case 5: return Data((0..<Int.random(in: 0...20, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
            case 6: return (0..<Int.random(in: 0...20, using: &generator)).map { _ in randomValue(depth + 1) }
            default:
                var dictionary: [String: Any] = [:]
                for _ in 0..<Int.random(in: 0...20, using: &generator) { dictionary[randomString()] = randomValue(depth + 1) }
                return dictionary
            }
        }
        for _ in 0..<300 {
            var dictionary: [String: Any] = [:]
            for _ in 0..<Int.random(in: 0...20, using: &generator) { dictionary[randomString()] = randomValue(0) }
            let ours = try #require(BinaryPlistCodec.encode(dictionary))
            let byFoundation = try PropertyListSerialization.propertyList(from: Data(ours), options: [], format: nil)
            #expect(PropertyList.isEqual(PropertyList.canonicalize(byFoundation), dictionary))
            #expect(PropertyList.isEqual(ours.withUnsafeBytes { BinaryPlistCodec.decode($0) }, dictionary))
            let theirs = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
            #expect(PropertyList.isEqual(theirs.withUnsafeBytes { BinaryPlistCodec.decode($0) }, dictionary))
        }
    }
}

import Foundation
import LockstepFoundation
import Testing

/// `NSSortDescriptor(key:ascending:)`, whose initializer Foundation on Linux refuses at compile time, and
/// `NSSortDescriptor(keyPath:ascending:)`, with the sorts Foundation does by them.
@Suite("LockstepFoundation: NSSortDescriptor")
struct SortDescriptorTests {
    typealias SortDescriptor = LockstepFoundation.NSSortDescriptor

    struct Feed {
        let name: String
        let unread: Int
        let updated: Date?
        let account: [String: Any]
    }

    static var feeds: [Feed] { [
        Feed(name: "beta", unread: 3, updated: Date(timeIntervalSince1970: 200), account: ["name": "Work"]),
        Feed(name: "Alpha", unread: 3, updated: nil, account: ["name": "Home"]),
        Feed(name: "gamma", unread: 9, updated: Date(timeIntervalSince1970: 100), account: ["name": "Home"]),
    ] }

    func names(_ descriptors: [SortDescriptor]) -> [String] {
        (Self.feeds as NSArray).sortedArray(using: descriptors).map { ($0 as! Feed).name }
    }

    @Test func aKeyComparesAsCompareDoes() {
        let byName = SortDescriptor(key: "name", ascending: true)
        #expect(byName.key == "name" && byName.ascending && byName.keyPath == nil)
        // `compare:` is literal: upper case before lower case.
        #expect(names([byName]) == ["Alpha", "beta", "gamma"])
        #expect(names([SortDescriptor(key: "unread", ascending: false)]) == ["gamma", "beta", "Alpha"])
        // A missing value comes first; a dotted key reads through a dictionary.
        #expect(names([SortDescriptor(key: "updated", ascending: true)]) == ["Alpha", "gamma", "beta"])
        #expect(names([SortDescriptor(key: "account.name", ascending: true)]) == ["Alpha", "gamma", "beta"])
    }

    @Test func laterDescriptorsBreakTiesAndEqualElementsKeepTheirOrder() {
        #expect(names([SortDescriptor(key: "unread", ascending: true), SortDescriptor(key: "name", ascending: false)])
            == ["beta", "Alpha", "gamma"])
        #expect(names([SortDescriptor(key: "unread", ascending: true)]) == ["beta", "Alpha", "gamma"])
        let reversed = SortDescriptor(key: "name", ascending: true).reversedSortDescriptor as! SortDescriptor
        #expect(!reversed.ascending && names([reversed]) == ["gamma", "beta", "Alpha"])
    }

    @Test func keyPathsAndComparators() {
        let byUnread = SortDescriptor(keyPath: \Feed.unread, ascending: false)
        #expect(byUnread.key == nil && byUnread.keyPath == \Feed.unread)
        #expect(names([byUnread, SortDescriptor(keyPath: \Feed.name, ascending: true)]) == ["gamma", "Alpha", "beta"])
        // A comparator decides instead of `compare:`: here by length, so "beta" comes first.
        let byLength = SortDescriptor(key: "name", ascending: true) { ($0 as! String).count < ($1 as! String).count ? .orderedAscending
            : ($0 as! String).count > ($1 as! String).count ? .orderedDescending : .orderedSame }
        #expect(byLength.compare(Self.feeds[0], to: Self.feeds[1]) == .orderedAscending)
        let list = NSMutableArray(array: Self.feeds)
        list.sort(using: [byLength])
        #expect(list.map { ($0 as! Feed).name } == ["beta", "Alpha", "gamma"])
    }
}

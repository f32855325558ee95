import Foundation
import OSLog
import Testing

/// Signposts (`os_signpost`, `OSSignposter`, `OSSignpostID`): the calls real code makes build and return, and the
/// values it keeps behave as Apple's.
@Suite("os: signposts")
struct SignpostTests {
    struct Failure: Error {}

    @Test func signpostIDsAreUniqueOrTheObjects() {
        let log = OSLog(subsystem: "com.example.items", category: .pointsOfInterest)
        let first = OSSignpostID(log: log), second = OSSignpostID(log: log)
        #expect(first != second && first != .exclusive && first != .invalid && first != .null)
        let object = NSObject()
        #expect(OSSignpostID(log: log, object: object) == OSSignpostID(log: log, object: object))
        #expect(OSSignpostID(log: log, object: object) != OSSignpostID(log: log, object: NSObject()))
        #expect(OSSignpostID.exclusive.rawValue == 0xEEEE_B0B5_B2B2_EEEE && OSSignpostID.invalid.rawValue == UInt64.max)
        #expect(OSSignpostID.null < OSSignpostID.invalid)
    }

    @Test func osSignpostTakesItsFormsAndRecordsNothing() {
        let log = OSLog(subsystem: "com.example.items", category: "perf")
        let id = OSSignpostID(log: log)
        os_signpost(.begin, log: log, name: "Processing Items", signpostID: id)
        os_signpost(.event, log: log, name: "Processing Items", "Processed %{public}s with %{public}d items", "fish", 3)
        os_signpost(.end, log: log, name: "Processing Items", signpostID: id, "Done %d", 1)
        #expect(!log.signpostsEnabled)
    }

    @Test func aSignposterRunsItsIntervalsWork() throws {
        let signposter = OSSignposter(subsystem: "com.example.db", category: .pointsOfInterest)
        #expect(!signposter.isEnabled && !OSSignposter.disabled.isEnabled)
        let state = signposter.beginInterval("Fetch articles", id: signposter.makeSignpostID())
        signposter.emitEvent("Fetched", "\(3) rows")
        signposter.endInterval("Fetch articles", state, "\(3) articles")
        let object = NSObject()
        #expect(signposter.makeSignpostID(from: object) == OSSignpostID(log: .default, object: object))
        #expect(signposter.withIntervalSignpost("Sum") { 2 + 3 } == 5)
        #expect(throws: Failure.self) { try signposter.withIntervalSignpost("Fail", "\("x")") { throw Failure() } }
        _ = try JSONDecoder().decode(OSSignpostIntervalState.self, from: JSONEncoder().encode(state))
    }
}

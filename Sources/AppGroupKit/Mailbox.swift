import Foundation
import LockstepSystem

/// One request/response exchange between processes through two folders: a sender posts a request file and waits for
/// the response of the same id; a receiver takes each request exactly once and answers it. Both sides only write
/// files atomically, rename and remove them, so a process that dies mid-exchange leaves a request not yet taken or a
/// response not yet read — never half of either. Serves the App Intents router (app ← extension) and
/// WatchConnectivity's messages and replies (phone ↔ watch); the paths come from `GroupsLayout`.
public struct Mailbox: Sendable {
    /// Where requests wait to be taken, as `<id>.plist`.
    public let requests: String
    /// Where responses wait to be read, as `<id>.plist`.
    public let responses: String

    public init(requests: String, responses: String) {
        self.requests = requests
        self.responses = responses
    }

    /// Creates both folders.
    public func prepare() throws(SystemError) {
        try AtomicFile.createDirectories(requests)
        try AtomicFile.createDirectories(responses)
    }

    private func request(_ id: String) -> String { "\(requests)/\(id).plist" }
    private func response(_ id: String) -> String { "\(responses)/\(id).plist" }

    /// Posts a request, written atomically.
    public func post(_ bytes: [UInt8], id: String) throws(SystemError) {
        try AtomicFile.write(bytes, to: request(id))
    }

    /// Withdraws a request no receiver has taken; false when one took it meanwhile (or it is gone).
    public func withdraw(_ id: String) -> Bool { FileSystem.remove(request(id)) }

    /// Whether the request is still waiting to be taken.
    public func isPending(_ id: String) -> Bool { FileSystem.exists(request(id)) }

    /// The response to `id`, read and removed; nil while there is none.
    public func takeResponse(_ id: String) throws(SystemError) -> [UInt8]? {
        guard let bytes = try AtomicFile.read(response(id)) else { return nil }
        FileSystem.remove(response(id))
        return bytes
    }

    /// The ids of the requests waiting, oldest name first.
    public func pending() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: requests)) ?? [])
            .filter { $0.hasSuffix(".plist") && !$0.hasPrefix(".") }.map { String($0.dropLast(6)) }.sorted()
    }

    /// Takes the request `id`: only one receiver gets it, as the rename into `claims` (a folder of the receiver's)
    /// or the removal succeeds for one process only. Nil when another took it first or it cannot be read.
    public func take(_ id: String, claimingInto claims: String? = nil) -> [UInt8]? {
        guard let claims else {
            guard let bytes = try? AtomicFile.read(request(id)), FileSystem.remove(request(id)) else { return nil }
            return bytes
        }
        try? AtomicFile.createDirectories(claims)
        let claimed = "\(claims)/\(id).plist"
        guard FileSystem.rename(request(id), to: claimed) else { return nil }
        defer { FileSystem.remove(claimed) }
        return try? AtomicFile.read(claimed)
    }

    /// Answers the request `id`, atomically.
    public func respond(_ bytes: [UInt8], to id: String) throws(SystemError) {
        try AtomicFile.write(bytes, to: response(id))
    }

    /// Discards every waiting request (messages meant for an earlier run of the receiver).
    public func discardPending() {
        for id in pending() { FileSystem.remove(request(id)) }
    }
}

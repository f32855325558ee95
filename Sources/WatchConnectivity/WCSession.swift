import AppGroupKit
import Foundation
import LockstepRuntime
import LockstepSystem
import Synchronization

/// One end of the phone↔watch channel (<doc:Rules> "WatchConnectivity"), over files and locks under `<groups>/link/<host-bundle-id>/`
/// — outside every group container, because phone and watch share none (rule `group.watch-separate`). The link
/// is only the transport: what a side has received belongs to that app, in its own private container on its own
/// device (rule `container.private`): files in `Documents/Inbox/`, the last application context in
/// `Library/Application Support/WatchConnectivity/received-context.plist`.
///
/// On disk (all payload files are XML property lists, replaced atomically):
/// ```
/// link/<host-bundle-id>/
///   phone.alive  watch.alive          flock held (exclusive) by an activated session: reachability
///   to-phone/ to-watch/               what each side receives:
///     messages/<id>.plist             {id, sentAt, wantsReply, payload}: deleted when handled; stale ones are
///                                     discarded when the receiver activates (messages need a running app)
///     replies/<id>.plist              {id, sentAt, payload}: the reply to a message this side sent
///     userinfo/<seq>.plist            {sentAt, payload}: FIFO by the 16-digit sequence, kept until delivered
///     userinfo.seq (+ .lock)          the last sequence number given out
///     context.plist (+ .lock)         {sentAt, payload}: the latest application context, not yet delivered
///     files/<seq>.data, <seq>.plist   a transferred file and {sentAt, fileName, metadata}; the .plist commits it
///     files.seq (+ .lock)
/// ```
/// `sentAt` is real time in seconds since 1970 (for latency). An activated receiver sleeps until inotify reports a
/// change in its folders or in the link folder (AppGroupKit's `DirectoryWatcher`, which polls every 50 ms only where
/// inotify is unavailable or `LOCKSTEP_WATCH=poll`). Reachability changes wake it too: activating touches the
/// side's `.alive` file (`IN_ATTRIB`), and releasing it, by deactivating or dying, closes it (`IN_CLOSE_WRITE`);
/// liveness probes open it read-only, so they wake nobody.
public final class WCSession: NSObject, @unchecked Sendable {  // @unchecked: mutable state is guarded by `lock`.
    /// Where this end lives.
    public struct Configuration: Sendable {
        /// `<groups>/link/<host-bundle-id>`: the transport.
        public var linkDirectory: String
        public var side: WCSide
        /// This app's private container on its own device (`<groups>/watch/Data/<bundle-id>` for the watch app),
        /// where what it receives is kept.
        public var privateContainer: String
        /// How long `sendMessage` waits for a reply.
        public var replyTimeout: Double
        /// Whether the counterpart app is installed (the manifest has a watch app; on the watch, a phone app):
        /// `isWatchAppInstalled`, `isPaired`, `isCompanionAppInstalled`.
        public var counterpartInstalled: Bool

        public init(linkDirectory: String, side: WCSide, privateContainer: String, replyTimeout: Double = 10,
                    counterpartInstalled: Bool = true) {
            self.linkDirectory = linkDirectory
            self.side = side
            self.privateContainer = privateContainer
            self.replyTimeout = replyTimeout
            self.counterpartInstalled = counterpartInstalled
        }

        /// `<groups>`: two folders above the link (`<groups>/link/<host-bundle-id>`), for the simulated clock.
        var groupsRoot: String { URL(fileURLWithPath: linkDirectory).deletingLastPathComponent().deletingLastPathComponent().path }

        /// `<private container>/Documents/Inbox`: where transferred files arrive (rule `wc.file`).
        public var inboxDirectory: String { "\(privateContainer)/Documents/Inbox" }

        /// The application context last delivered to this app, kept across launches.
        public var receivedContextPath: String {
            "\(privateContainer)/Library/Application Support/WatchConnectivity/received-context.plist"
        }
    }

    public let configuration: Configuration
    public weak var delegate: (any WCSessionDelegate)?
    private let lock = NSLock()
    private var state = WCSessionActivationState.notActivated
    private var aliveLock: FileLock?
    private var watcher: DirectoryWatcher?
    private var running = false
    private var lastReachable = false
    private var sentContext: [String: Any] = [:]
    private var latency: Double?

    /// A session at `configuration` (Lockstep's own code and tests; a bundle's code uses `WCSession.default`).
    public init(configuration: Configuration) {
        self.configuration = configuration
        super.init()
    }

    /// Apple's `WCSession.isSupported()`: whether this code runs in a simulated process (a phone app, a watch app,
    /// or one of their extensions), which has a session.
    public static func isSupported() -> Bool { SimulatedProcess.current != nil }

    /// Apple's `WCSession.default`: the session of the simulated process this code runs in — the watch side in the
    /// watch app, the phone side everywhere else — on the link of the installed app. In no simulated process, a session
    /// whose activation fails with `sessionNotSupported` (7002).
    public static var `default`: WCSession {
        defaultSession.withLock { session in
            if let session { return session }
            let made = makeDefault()
            session = made
            return made
        }
    }

    private static let defaultSession = Mutex<WCSession?>(nil)

    private static func makeDefault() -> WCSession {
        guard let process = SimulatedProcess.current, let sandbox = try? process.sandbox() else {
            return WCSession(configuration: Configuration(linkDirectory: "", side: .phone, privateContainer: "", counterpartInstalled: false))
        }
        let side: WCSide = process.bundle.role == .watch ? .watch : .phone
        let host = process.manifest.app.bundleIdentifier ?? process.manifest.app.name
        let counterpartInstalled = side == .watch || process.manifest.bundles.contains { $0.role == .watch }
        return WCSession(configuration: Configuration(
            linkDirectory: GroupsLayout(root: process.groupsRoot).link(host: host), side: side,
            privateContainer: sandbox.privateContainerPath, counterpartInstalled: counterpartInstalled))
    }

    public var activationState: WCSessionActivationState { lock.withLock { state } }

    /// Milliseconds between the send and the delivery of the item being delivered (inside a delegate call).
    public var deliveryLatencyMilliseconds: Int? { lock.withLock { latency }.map { Int(($0 * 1000).rounded()) } }

    /// The link's files (GroupsLayout.Link): this side receives in `inbound`, sends into `outbound`.
    private var link: GroupsLayout.Link { GroupsLayout.Link(directory: configuration.linkDirectory) }
    private var me: String { configuration.side.rawValue }
    private var counterpart: String { configuration.side.counterpart.rawValue }
    private var inbound: String { link.inbox(me) }
    private var outbound: String { link.inbox(counterpart) }
    /// Messages this side sends, and the counterpart's replies to them.
    private var sent: Mailbox { Mailbox(requests: link.queue("messages", to: counterpart), responses: link.queue("replies", to: me)) }
    /// Messages the counterpart sends, and this side's replies.
    private var received: Mailbox { Mailbox(requests: link.queue("messages", to: me), responses: link.queue("replies", to: counterpart)) }

    // MARK: Activation and reachability

    /// Apple's `activate()`: the outcome arrives at the delegate's `session(_:activationDidCompleteWith:error:)`.
    public func activate() {
        do {
            try startSession()
        } catch {
            delegate?.session(self, activationDidCompleteWith: .notActivated, error: error)
        }
    }

    /// Activates the session (rule `wc.activate`): announces this side as running, discards messages meant for
    /// an earlier run, delivers what queued up while it was not running (user info in order, the latest context,
    /// files), then keeps receiving on a background thread, woken when something arrives. `activate()` that throws.
    /// - Throws: `WCError` 7002 outside a simulated process, 7001 when another process already holds this side's
    ///   session.
    public func startSession() throws {
        guard !configuration.linkDirectory.isEmpty else {
            throw WCError(.sessionNotSupported, "this code runs in no simulated process (SimulatedProcess.start was not called)")
        }
        try SharedWriteGate.check()
        let queues = ["messages", "replies", "userinfo", "files"]
        for directory in [me, counterpart].flatMap({ side in queues.map { link.queue($0, to: side) } }) {
            try AtomicFile.createDirectories(directory)
        }
        // Watching starts before the first pass, so nothing that arrives in between is missed.
        let watcher = try DirectoryWatcher(directories: [configuration.linkDirectory, inbound] + queues.map { link.queue($0, to: me) })
        let alivePath = alivePath(configuration.side)
        let alive = try FileLock(path: alivePath)
        // The counterpart asking whether this side is alive (`FileLock.isHeld`) holds a shared lock on the file for
        // an instant, so a free file can look taken: only a lock still held after a short wait is another session.
        do throws(SystemError) {
            try alive.lock(.exclusive, timeout: 0.2)
        } catch {
            guard case .busy = error.code else { throw error }
            throw WCError.sessionHeldElsewhere("another \(configuration.side) session is already active on \(configuration.linkDirectory)")
        }
        // Wakes the counterpart's receiver (IN_ATTRIB on the link folder): this side is reachable from now on.
        FileSystem.touch(alivePath)
        received.discardPending()
        lock.withLock {
            aliveLock = alive
            self.watcher = watcher
            state = .activated
            running = true
            lastReachable = counterpartAlive()
        }
        delegate?.session(self, activationDidCompleteWith: .activated, error: nil)
        receivePass()
        Thread.detachNewThread { [self] in
            var woken = true
            // Until this activation's watcher is cancelled (a later activation has its own thread).
            while lock.withLock({ running && self.watcher === watcher }) {
                receivePass()
                woken = Self.nextWake(watcher, after: woken)
            }
        }
    }

    /// Stops receiving and releases this side's liveness lock (the counterpart sees it unreachable).
    public func deactivate() {
        lock.withLock {
            running = false
            state = .notActivated
            // Unlocked before the close that wakes the counterpart (IN_CLOSE_WRITE), so its probe finds it free.
            try? aliveLock?.unlock()
            aliveLock = nil
            watcher?.cancel()
            watcher = nil
        }
    }

    /// Whether the receiving thread is woken by inotify (false: the polling fallback).
    var isWokenByInotify: Bool? { lock.withLock { watcher?.usesInotify } }

    /// How long after a wake one more look is taken: the kernel reports a dying counterpart's close of its `.alive`
    /// file a moment before it drops the lock (`fsnotify_close` precedes `locks_remove_file` in `__fput`), so the
    /// look that the close woke can still find the counterpart reachable.
    static let settleDelay = 0.05

    /// Waits for the next wake (`true`); after a wake, at most `settleDelay` (`false`); never past `deadline`.
    private static func nextWake(_ watcher: DirectoryWatcher, after woken: Bool, deadline: Double? = nil) -> Bool {
        var timeout = woken ? settleDelay : nil
        if let deadline { timeout = max(0, min(timeout ?? .infinity, deadline - Monotonic.now)) }
        return watcher.wait(timeout: timeout)
    }

    /// Whether the counterpart app is running with an activated session (its liveness lock is held).
    public var isReachable: Bool { activationState == .activated && counterpartAlive() }

    /// iOS: whether a watch is paired — on the simulated device, whether the manifest has a watch app.
    public var isPaired: Bool { configuration.side == .phone && configuration.counterpartInstalled }
    /// iOS: whether the watch app is installed.
    public var isWatchAppInstalled: Bool { configuration.side == .phone && configuration.counterpartInstalled }
    /// iOS: whether the watch face shows the app's complication (Lockstep's watch has none yet).
    public var isComplicationEnabled: Bool { false }
    /// watchOS: whether the iPhone app is installed.
    public var isCompanionAppInstalled: Bool { configuration.side == .watch }

    private func counterpartAlive() -> Bool { FileLock.isHeld(path: alivePath(configuration.side.counterpart)) }

    private func alivePath(_ side: WCSide) -> String { link.alive(side.rawValue) }

    private func requireActivated() throws(WCError) {
        guard activationState == .activated else {
            throw WCError(.sessionNotActivated, "\(configuration.side) session on \(configuration.linkDirectory)")
        }
    }

    // MARK: Sending

    /// Sends an interactive message and waits for the reply (rule `wc.message`).
    /// - Throws: 7004 before activation, 7007 when the counterpart is not running, 7009/7010 for the payload,
    ///   7012 when no reply comes within the configured timeout.
    public func sendMessage(_ message: [String: Any]) throws -> [String: Any] {
        try send(message, wantsReply: true) as? [String: Any] ?? [:]
    }

    /// Apple's form: the reply or the error arrives on a handler, on another thread (rule `wc.message`).
    public func sendMessage(_ message: [String: Any], replyHandler: (([String: Any]) -> Void)?,
                            errorHandler: ((any Error) -> Void)? = nil) {
        let payload: [String: Any]
        do {
            try requireActivated()
            payload = try Payload.encode(message, limit: Payload.messageLimit, what: "the message")
        } catch {
            errorHandler?(error)
            return
        }
        sendInBackground(payload, wantsReply: replyHandler != nil,
                         reply: { replyHandler?($0 as? [String: Any] ?? [:]) }, failure: { errorHandler?($0) })
    }

    /// A message of bytes, replied to with bytes (`sendMessageData(_:replyHandler:errorHandler:)`).
    public func sendMessageData(_ data: Data, replyHandler: ((Data) -> Void)?, errorHandler: ((any Error) -> Void)? = nil) {
        do {
            try requireActivated()
            guard data.count <= Payload.messageLimit else {
                throw WCError(.payloadTooLarge, "the message data is \(data.count) bytes, over the \(Payload.messageLimit)-byte limit")
            }
        } catch {
            errorHandler?(error)
            return
        }
        sendInBackground(data, wantsReply: replyHandler != nil,
                         reply: { replyHandler?($0 as? Data ?? Data()) }, failure: { errorHandler?($0) })
    }

    /// Sends on a thread of its own and calls back from it, as the device calls back on a background queue. The
    /// handlers are the caller's (not `Sendable`, as Apple declares them): each is called once, from that thread.
    private func sendInBackground(_ payload: Any, wantsReply: Bool, reply: @escaping (Any) -> Void, failure: @escaping (any Error) -> Void) {
        // A canonical payload holds only value types (strings, numbers, dates, data, arrays, dictionaries).
        nonisolated(unsafe) let work = (payload: payload, reply: reply, failure: failure)
        Thread.detachNewThread { [self] in
            do {
                let answer = try send(encoded: work.payload, wantsReply: wantsReply)
                if let answer { work.reply(answer) }
            } catch {
                work.failure(error)
            }
        }
    }

    private func send(_ message: [String: Any], wantsReply: Bool) throws -> Any? {
        try requireActivated()
        return try send(encoded: try Payload.encode(message, limit: Payload.messageLimit, what: "the message"), wantsReply: wantsReply)
    }

    /// Posts a message whose payload is a dictionary or bytes, and waits for the reply of the same kind.
    private func send(encoded payload: Any, wantsReply: Bool) throws -> Any? {
        guard counterpartAlive() else {
            throw WCError(.notReachable, "the \(configuration.side.counterpart) app is not running with an activated session")
        }
        try SharedWriteGate.check()
        let id = "\(Int(Date().timeIntervalSince1970 * 1_000_000))-\(ProcessEnvironment.processID)-\(UInt32.random(in: 0 ... .max))"
        let envelope = Payload.envelope(["id": id, "sentAt": Date().timeIntervalSince1970, "wantsReply": wantsReply,
                                         "payload": payload])
        // Woken by the reply, or by the counterpart's liveness changing; watching starts before the message is out.
        let sent = sent
        let watcher = try wantsReply ? DirectoryWatcher(directories: [sent.responses, configuration.linkDirectory]) : nil
        try sent.post(Array(envelope), id: id)
        guard let watcher else { return nil }
        let deadline = Monotonic.now + configuration.replyTimeout
        var woken = true
        while true {
            if let bytes = try sent.takeResponse(id) {
                let reply = Payload.decode(Data(bytes))?["payload"]
                return payload is Data ? reply as? Data ?? Data() : reply as? [String: Any] ?? [:]
            }
            if !counterpartAlive() && sent.isPending(id) {
                _ = sent.withdraw(id)
                throw WCError(.notReachable, "the \(configuration.side.counterpart) app stopped before reading the message")
            }
            if Monotonic.now >= deadline {
                _ = sent.withdraw(id)
                throw WCError(.messageReplyTimedOut, "no reply within \(Int(configuration.replyTimeout)) s")
            }
            woken = Self.nextWake(watcher, after: woken, deadline: deadline)
        }
    }

    /// Apple's `transferUserInfo(_:)`: queues a dictionary for the counterpart, delivered in order even across
    /// restarts of either side (rule `wc.userinfo`). A transfer that cannot be queued is reported to the
    /// delegate's `session(_:didFinish:error:)`.
    @discardableResult
    public func transferUserInfo(_ userInfo: [String: Any]) -> WCSessionUserInfoTransfer {
        reportingFailure(WCSessionUserInfoTransfer(sequence: 0, userInfo: userInfo)) { try queueUserInfo(userInfo) }
    }

    /// `transferUserInfo(_:)` that throws.
    /// - Throws: 7004 before activation, 7009/7010 for the payload.
    @discardableResult
    public func queueUserInfo(_ userInfo: [String: Any], isCurrentComplicationInfo: Bool = false) throws -> WCSessionUserInfoTransfer {
        try requireActivated()
        let payload = try Payload.encode(userInfo, limit: Payload.messageLimit, what: "the user info")
        try SharedWriteGate.check()
        let sequence = try nextSequence(link.sequence("userinfo", to: counterpart))
        let envelope = Payload.envelope(["sentAt": Date().timeIntervalSince1970, "payload": payload,
                                         "complication": isCurrentComplicationInfo])
        let queued = "\(link.queue("userinfo", to: counterpart))/\(Self.padded(sequence)).plist"
        try AtomicFile.write(Array(envelope), to: queued)
        return WCSessionUserInfoTransfer(sequence: sequence, userInfo: userInfo, isCurrentComplicationInfo: isCurrentComplicationInfo, queuedPath: queued)
    }

    /// The complication transfers a day allows (Apple: "50 transfers a day"; `LOCKSTEP_COMPLICATION_TRANSFERS`
    /// overrides it).
    public static var complicationTransfersPerDay: Int {
        ProcessEnvironment.value("LOCKSTEP_COMPLICATION_TRANSFERS").flatMap { Int($0) }.map { max(0, $0) } ?? 50
    }

    /// iOS: how many `transferCurrentComplicationUserInfo(_:)` calls keep their priority in the 24 hours before now
    /// on the simulated clock.
    public var remainingComplicationUserInfoTransfers: Int {
        max(0, Self.complicationTransfersPerDay - complicationStamps(at: SimulatedClock(groupsRoot: configuration.groupsRoot).now()).count)
    }

    /// iOS: user info for the watch's complication, delivered at once while the daily allowance lasts and then as an
    /// ordinary transfer, as on a device. Failures go to `session(_:didFinish:error:)`.
    @discardableResult
    public func transferCurrentComplicationUserInfo(_ userInfo: [String: Any]) -> WCSessionUserInfoTransfer {
        reportingFailure(WCSessionUserInfoTransfer(sequence: 0, userInfo: userInfo, isCurrentComplicationInfo: true)) {
            let now = SimulatedClock(groupsRoot: configuration.groupsRoot).now()
            let allowed = try LockedFile.update(link.complicationTransfers(from: me)) { current in
                var stamps = Self.window(current ?? "", at: now)
                guard stamps.count < Self.complicationTransfersPerDay else { return (nil, false) }
                stamps.append(now)
                return (stamps.map { "\($0)\n" }.joined(), true)
            }
            return try queueUserInfo(userInfo, isCurrentComplicationInfo: allowed)
        }
    }

    private func complicationStamps(at now: Double) -> [Double] {
        guard let bytes = try? AtomicFile.read(link.complicationTransfers(from: me)) else { return [] }
        return Self.window(String(decoding: bytes, as: UTF8.self), at: now)
    }

    private static func window(_ text: String, at now: Double) -> [Double] {
        text.split(separator: "\n").compactMap { Double($0) }.filter { $0 > now - 86_400 && $0 <= now }
    }

    private func reportingFailure(_ fallback: WCSessionUserInfoTransfer, _ body: () throws -> WCSessionUserInfoTransfer) -> WCSessionUserInfoTransfer {
        do {
            return try body()
        } catch {
            if ProcessStop.isFatal(error) { ProcessStop.report(error) }  // a stale build stops, as iOS stops it
            delegate?.session(self, didFinish: fallback, error: error)
            return fallback
        }
    }


    /// Transfers still queued for the counterpart (not yet delivered).
    public var outstandingUserInfoTransfers: [WCSessionUserInfoTransfer] {
        let queue = link.queue("userinfo", to: counterpart)
        return Self.list(queue).sorted().compactMap { name in
            guard name.hasSuffix(".plist"), let sequence = Int(name.prefix(16)) else { return nil }
            let envelope = (try? AtomicFile.read("\(queue)/\(name)")).flatMap { $0 }.flatMap { Payload.decode(Data($0)) }
            return WCSessionUserInfoTransfer(sequence: sequence, userInfo: envelope?["payload"] as? [String: Any] ?? [:],
                                             isCurrentComplicationInfo: envelope?["complication"] as? Bool ?? false,
                                             queuedPath: "\(queue)/\(name)")
        }
    }

    /// Replaces the application context: only the latest is delivered (rule `wc.context`).
    public func updateApplicationContext(_ context: [String: Any]) throws {
        try requireActivated()
        let payload = try Payload.encode(context, limit: Payload.contextLimit, what: "the application context")
        try SharedWriteGate.check()
        let envelope = Payload.envelope(["sentAt": Date().timeIntervalSince1970, "payload": payload])
        try FileLock(path: link.contextLock(to: counterpart)).withLock {
            try AtomicFile.write(Array(envelope), to: link.context(to: counterpart))
        }
        lock.withLock { sentContext = context }
    }

    /// The context this side last sent.
    public var applicationContext: [String: Any] { lock.withLock { sentContext } }

    /// The context last delivered to this side (survives restarts: it is kept in this app's private container).
    public var receivedApplicationContext: [String: Any] {
        Self.readEnvelope(configuration.receivedContextPath)?.1 ?? [:]
    }

    /// Apple's `transferFile(_:metadata:)`: sends a copy of a file to the counterpart's `Documents/Inbox/` (rule
    /// `wc.file`). A file that cannot be sent is reported to `session(_:didFinish:error:)`.
    @discardableResult
    public func transferFile(_ file: URL, metadata: [String: Any]?) -> WCSessionFileTransfer {
        do {
            return try queueFile(file, metadata: metadata)
        } catch {
            if ProcessStop.isFatal(error) { ProcessStop.report(error) }  // a stale build stops, as iOS stops it
            let transfer = WCSessionFileTransfer(sequence: 0, fileName: file.lastPathComponent, file: WCSessionFile(fileURL: file, metadata: metadata))
            delegate?.session(self, didFinish: transfer, error: error)
            return transfer
        }
    }

    /// `transferFile(_:metadata:)` that throws.
    /// - Throws: 7004 before activation, 7013 for a file that cannot be read, 7009/7010 for the metadata.
    @discardableResult
    public func queueFile(_ file: URL, metadata: [String: Any]? = nil) throws -> WCSessionFileTransfer {
        try requireActivated()
        let encodedMetadata = try metadata.map { try Payload.encode($0, limit: Payload.messageLimit, what: "the file metadata") }
        guard let bytes = try? AtomicFile.read(file.path) else {
            throw WCError(.fileAccessDenied, "'\(file.path)' cannot be read")
        }
        try SharedWriteGate.check()
        let sequence = try nextSequence(link.sequence("files", to: counterpart))
        let base = "\(link.queue("files", to: counterpart))/\(Self.padded(sequence))"
        try AtomicFile.write(bytes, to: "\(base).data")
        var fields: [String: Any] = ["sentAt": Date().timeIntervalSince1970, "fileName": file.lastPathComponent]
        if let encodedMetadata { fields["metadata"] = encodedMetadata }
        try AtomicFile.write(Array(Payload.envelope(fields)), to: "\(base).plist")
        return WCSessionFileTransfer(sequence: sequence, fileName: file.lastPathComponent, file: WCSessionFile(fileURL: file, metadata: metadata),
                                     queuedBase: base)
    }

    /// File transfers still queued for the counterpart (not yet delivered).
    public var outstandingFileTransfers: [WCSessionFileTransfer] {
        let queue = link.queue("files", to: counterpart)
        return Self.list(queue).sorted().compactMap { name in
            guard name.hasSuffix(".plist"), let sequence = Int(name.prefix(16)) else { return nil }
            let base = "\(queue)/\(name.dropLast(".plist".count))"
            let envelope = (try? AtomicFile.read("\(queue)/\(name)")).flatMap { $0 }.flatMap { Payload.decode(Data($0)) }
            let fileName = envelope?["fileName"] as? String ?? name
            let file = WCSessionFile(fileURL: URL(fileURLWithPath: "\(base).data"), metadata: envelope?["metadata"] as? [String: Any])
            return WCSessionFileTransfer(sequence: sequence, fileName: fileName, file: file, queuedBase: base)
        }
    }

    /// Whether something the counterpart sent waits to be delivered to this side (user info, a context, files),
    /// as it does while this side's session is not activated.
    public var hasContentPending: Bool {
        let queues = [link.queue("userinfo", to: me), link.queue("files", to: me)]
        return queues.contains { !Self.list($0).filter { $0.hasSuffix(".plist") }.isEmpty } || FileSystem.exists(link.context(to: me))
    }

    /// iOS: a folder in the app's container for data about the paired watch, nil when no watch app is installed (or
    /// before activation), and on the watch. Deleted by the system when the watch app is removed.
    public var watchDirectoryURL: URL? {
        guard configuration.side == .phone, configuration.counterpartInstalled, activationState == .activated else { return nil }
        let path = "\(configuration.privateContainer)/Library/Application Support/WatchConnectivity/Watch"
        try? AtomicFile.createDirectories(path)
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    // MARK: Receiving

    /// One pass over this side's inbound directory: user info in order, the context, files, then messages.
    func receivePass() {
        guard let delegate else { return }
        let reachable = counterpartAlive()
        if lock.withLock({ let changed = reachable != lastReachable; lastReachable = reachable; return changed }) {
            delegate.sessionReachabilityDidChange(self)
        }
        for name in Self.list(link.queue("userinfo", to: me)).sorted() where name.hasSuffix(".plist") {
            let path = "\(link.queue("userinfo", to: me))/\(name)"
            guard let (sentAt, payload) = Self.readEnvelope(path) else { continue }
            deliver(sentAt) { delegate.session(self, didReceiveUserInfo: payload) }
            // Removed after the handler returned: a receiver that dies mid-delivery gets it again on relaunch.
            FileSystem.remove(path)
        }
        receiveContext(delegate)
        for name in Self.list(link.queue("files", to: me)).sorted() where name.hasSuffix(".plist") {
            receiveFile(String(name.dropLast(6)), delegate)
        }
        let received = received
        for name in received.pending() {
            guard let bytes = received.take(name), let envelope = Payload.decode(Data(bytes)) else { continue }
            let sentAt = envelope["sentAt"] as? Double ?? 0
            func respond(_ reply: Any, to id: String) {
                let fields: [String: Any] = ["id": id, "sentAt": Date().timeIntervalSince1970, "payload": reply]
                try? received.respond(Array(Payload.envelope(fields)), to: id)
            }
            let id = envelope["wantsReply"] as? Bool == true ? envelope["id"] as? String : nil
            if let data = envelope["payload"] as? Data {
                if let id {
                    deliver(sentAt) { delegate.session(self, didReceiveMessageData: data) { respond($0, to: id) } }
                } else {
                    deliver(sentAt) { delegate.session(self, didReceiveMessageData: data) }
                }
                continue
            }
            let payload = envelope["payload"] as? [String: Any] ?? [:]
            if let id {
                deliver(sentAt) { delegate.session(self, didReceiveMessage: payload) { respond($0, to: id) } }
            } else {
                deliver(sentAt) { delegate.session(self, didReceiveMessage: payload) }
            }
        }
    }

    private func receiveContext(_ delegate: any WCSessionDelegate) {
        let pending = link.context(to: me)
        guard FileSystem.exists(pending) else { return }
        // Take the pending context under the sender's lock, so a newer one written meanwhile is never lost. It is kept
        // in this app's own container (rule `container.private`) before it leaves the link: never in neither.
        let taken: (Double, [String: Any])? = try? FileLock(path: link.contextLock(to: me)).withLock {
            guard let bytes = try AtomicFile.read(pending), let envelope = Self.decodeEnvelope(bytes) else { return nil }
            try AtomicFile.createDirectories(URL(fileURLWithPath: configuration.receivedContextPath).deletingLastPathComponent().path)
            try AtomicFile.write(bytes, to: configuration.receivedContextPath)
            FileSystem.remove(pending)
            return envelope
        }
        if let (sentAt, payload) = taken {
            deliver(sentAt) { delegate.session(self, didReceiveApplicationContext: payload) }
        }
    }

    private func receiveFile(_ base: String, _ delegate: any WCSessionDelegate) {
        let directory = link.queue("files", to: me)
        guard let bytes = try? AtomicFile.read("\(directory)/\(base).plist"), let envelope = Payload.decode(Data(bytes)) else { return }
        // Only the last path component: a received file never lands outside the inbox.
        let name = (envelope["fileName"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent }
            .flatMap { ["", "/", ".", ".."].contains($0) ? nil : $0 } ?? base
        try? AtomicFile.createDirectories(configuration.inboxDirectory)
        var target = "\(configuration.inboxDirectory)/\(name)"
        if FileSystem.exists(target) { target = "\(configuration.inboxDirectory)/\(base)-\(name)" }
        guard FileSystem.rename("\(directory)/\(base).data", to: target) else { return }
        FileSystem.remove("\(directory)/\(base).plist")
        let file = WCSessionFile(fileURL: URL(fileURLWithPath: target), metadata: envelope["metadata"] as? [String: Any])
        deliver(envelope["sentAt"] as? Double ?? 0) { delegate.session(self, didReceive: file) }
        // rule `wc.file`: "The system will remove any content that has not been moved when this delegate method returns."
        FileSystem.remove(target)
    }

    private func deliver(_ sentAt: Double, _ call: () -> Void) {
        lock.withLock { latency = Date().timeIntervalSince1970 - sentAt }
        call()
        lock.withLock { latency = nil }
    }

    // MARK: Files

    private func nextSequence(_ path: String) throws -> Int {
        try LockedFile.increment(path)
    }

    static func readEnvelope(_ path: String) -> (Double, [String: Any])? {
        (try? AtomicFile.read(path)).flatMap { $0 }.flatMap(decodeEnvelope)
    }

    /// `(sentAt, payload)` of an envelope.
    static func decodeEnvelope(_ bytes: [UInt8]) -> (Double, [String: Any])? {
        guard let envelope = Payload.decode(Data(bytes)) else { return nil }
        return (envelope["sentAt"] as? Double ?? 0, envelope["payload"] as? [String: Any] ?? [:])
    }

    static func list(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { !$0.hasPrefix(".") }
    }

    static func padded(_ sequence: Int) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }
}

import Foundation
import LockstepSystem

/// The two ends of the simulated link.
public enum WCSide: String, Sendable {
    case phone
    case watch

    /// The other end.
    public var counterpart: WCSide { self == .phone ? .watch : .phone }
}

/// Whether a session can send (rule `wc.activate`), with Apple's raw values.
public enum WCSessionActivationState: Int, Sendable {
    case notActivated = 0
    case inactive = 1
    case activated = 2
}

/// A file that arrived in `Documents/Inbox/` (rule `wc.file`): move it during the delegate call to keep it.
open class WCSessionFile: NSObject, @unchecked Sendable {  // @unchecked: immutable; metadata holds plist values only.
    public let fileURL: URL
    public let metadata: [String: Any]?

    init(fileURL: URL, metadata: [String: Any]?) {
        self.fileURL = fileURL
        self.metadata = metadata
    }
}

/// A queued user-info transfer (rule `wc.userinfo`), as Apple's class: `isTransferring` while it waits in the
/// counterpart's queue, `cancel()` takes it out before delivery.
open class WCSessionUserInfoTransfer: NSObject, @unchecked Sendable {  // @unchecked: immutable; plist values only.
    /// The position in the receiver's FIFO queue.
    public let sequence: Int
    public let userInfo: [String: Any]
    /// Whether it was sent with `transferCurrentComplicationUserInfo(_:)`.
    public let isCurrentComplicationInfo: Bool
    /// The queued file in the link (nil for a transfer that could not be queued).
    let queuedPath: String?

    init(sequence: Int, userInfo: [String: Any] = [:], isCurrentComplicationInfo: Bool = false, queuedPath: String? = nil) {
        self.sequence = sequence
        self.userInfo = userInfo
        self.isCurrentComplicationInfo = isCurrentComplicationInfo
        self.queuedPath = queuedPath
    }

    /// Whether it still waits for delivery.
    open var isTransferring: Bool { queuedPath.map(FileSystem.exists) ?? false }

    /// Takes it out of the queue, unless the counterpart has received it already.
    open func cancel() {
        if let queuedPath { _ = FileSystem.remove(queuedPath) }
    }
}

/// A queued file transfer, as Apple's class.
open class WCSessionFileTransfer: NSObject, @unchecked Sendable {  // @unchecked: immutable; plist values only.
    public let sequence: Int
    public let fileName: String
    /// The file as sent.
    public let file: WCSessionFile
    /// The queued envelope and data in the link (nil for a transfer that could not be queued).
    let queuedBase: String?

    init(sequence: Int, fileName: String, file: WCSessionFile, queuedBase: String? = nil) {
        self.sequence = sequence
        self.fileName = fileName
        self.file = file
        self.queuedBase = queuedBase
    }

    /// Whether it still waits for delivery.
    open var isTransferring: Bool { queuedBase.map { FileSystem.exists("\($0).plist") } ?? false }

    /// How far it is: all of it is queued at once, so complete unless it is still waiting.
    open var progress: Progress {
        let progress = Progress(totalUnitCount: 1)
        progress.completedUnitCount = isTransferring ? 0 : 1
        return progress
    }

    /// Takes it out of the queue, unless the counterpart has received it already.
    open func cancel() {
        guard let queuedBase else { return }
        _ = FileSystem.remove("\(queuedBase).plist")
        _ = FileSystem.remove("\(queuedBase).data")
    }
}

/// Receives what the counterpart sends, with Apple's method names. Every method has a default (the iOS-only
/// `sessionDidBecomeInactive`/`sessionDidDeactivate` too), so a delegate written for iOS or watchOS compiles as it is;
/// all are called on the session's receiving thread, as on a device they come on a background queue.
public protocol WCSessionDelegate: AnyObject {
    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?)
    func sessionDidBecomeInactive(_ session: WCSession)
    func sessionDidDeactivate(_ session: WCSession)
    func sessionReachabilityDidChange(_ session: WCSession)
    func sessionWatchStateDidChange(_ session: WCSession)
    func sessionCompanionAppInstalledDidChange(_ session: WCSession)
    func session(_ session: WCSession, didReceiveMessage message: [String: Any])
    func session(_ session: WCSession, didReceiveMessage message: [String: Any], replyHandler: @escaping ([String: Any]) -> Void)
    func session(_ session: WCSession, didReceiveMessageData messageData: Data)
    func session(_ session: WCSession, didReceiveMessageData messageData: Data, replyHandler: @escaping (Data) -> Void)
    func session(_ session: WCSession, didReceiveApplicationContext applicationContext: [String: Any])
    func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any])
    func session(_ session: WCSession, didFinish userInfoTransfer: WCSessionUserInfoTransfer, error: (any Error)?)
    func session(_ session: WCSession, didReceive file: WCSessionFile)
    func session(_ session: WCSession, didFinish fileTransfer: WCSessionFileTransfer, error: (any Error)?)
}

extension WCSessionDelegate {
    public func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?) {}
    public func sessionDidBecomeInactive(_ session: WCSession) {}
    public func sessionDidDeactivate(_ session: WCSession) {}
    public func sessionReachabilityDidChange(_ session: WCSession) {}
    public func sessionWatchStateDidChange(_ session: WCSession) {}
    public func sessionCompanionAppInstalledDidChange(_ session: WCSession) {}
    public func session(_ session: WCSession, didReceiveMessage message: [String: Any]) {}
    /// Without a reply handler of its own, the message is handed to `didReceiveMessage` and answered with `[:]`.
    public func session(_ session: WCSession, didReceiveMessage message: [String: Any], replyHandler: @escaping ([String: Any]) -> Void) {
        self.session(session, didReceiveMessage: message)
        replyHandler([:])
    }
    public func session(_ session: WCSession, didReceiveMessageData messageData: Data) {}
    public func session(_ session: WCSession, didReceiveMessageData messageData: Data, replyHandler: @escaping (Data) -> Void) {
        self.session(session, didReceiveMessageData: messageData)
        replyHandler(Data())
    }
    public func session(_ session: WCSession, didReceiveApplicationContext applicationContext: [String: Any]) {}
    public func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any]) {}
    public func session(_ session: WCSession, didFinish userInfoTransfer: WCSessionUserInfoTransfer, error: (any Error)?) {}
    public func session(_ session: WCSession, didReceive file: WCSessionFile) {}
    public func session(_ session: WCSession, didFinish fileTransfer: WCSessionFileTransfer, error: (any Error)?) {}
}

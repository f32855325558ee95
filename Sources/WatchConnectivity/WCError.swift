import LockstepSystem

/// A WatchConnectivity error, with the codes and meanings of `WCErrorDomain` (<doc:Rules> "WatchConnectivity", WCError.h).
public struct WCError: Error, Equatable, Sendable {
    /// The WCErrorDomain codes.
    public enum Code: Int, Sendable, CaseIterable {
        case genericError = 7001
        case sessionNotSupported = 7002
        case sessionMissingDelegate = 7003
        case sessionNotActivated = 7004
        case deviceNotPaired = 7005
        case watchAppNotInstalled = 7006
        case notReachable = 7007
        case invalidParameter = 7008
        case payloadTooLarge = 7009
        case payloadUnsupportedTypes = 7010
        case messageReplyFailed = 7011
        case messageReplyTimedOut = 7012
        case fileAccessDenied = 7013
        case deliveryFailed = 7014
        case insufficientSpace = 7015
        case sessionInactive = 7016
        case transferTimedOut = 7017
        case companionAppNotInstalled = 7018
        case watchOnlyApp = 7019
    }

    /// The domain string every WCError carries.
    public static let domain = "WCErrorDomain"

    public var code: Code
    /// The counterpart bundle, key or file concerned, and any detail.
    public var detail: String
    /// Whether another process holds this side's session: WCErrorDomain has no code for it (on a device one app
    /// has one session), so it is a `genericError` that exits 75 (busy) rather than 1.
    public private(set) var isSessionHeldElsewhere = false

    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// Another process already has this side's session active on the link.
    static func sessionHeldElsewhere(_ detail: String) -> WCError {
        var error = WCError(.genericError, detail)
        error.isSessionHeldElsewhere = true
        return error
    }
}

extension WCError: ReportableError {
    public var description: String {
        let what: String
        switch code {
        case .sessionNotActivated: what = "the session has not been activated (call activate() first)"
        case .notReachable: what = "the counterpart app is not reachable: interactive messages need both apps running"
        case .payloadTooLarge: what = "the payload is too large"
        case .payloadUnsupportedTypes: what = "the payload contains types that are not property-list types"
        case .messageReplyTimedOut: what = "the counterpart did not reply in time"
        case .fileAccessDenied: what = "the file cannot be read"
        default: what = "the operation failed"
        }
        return "\(Self.domain) error \(code.rawValue) (\(code)): \(what) — \(detail)."
    }

    public var exitStatus: ExitStatus {
        switch code {
        case .notReachable, .messageReplyTimedOut, .messageReplyFailed: return .unavailable
        case .payloadTooLarge, .payloadUnsupportedTypes, .invalidParameter, .fileAccessDenied: return .invalidInput
        case .genericError where isSessionHeldElsewhere: return .busy
        default: return .failure
        }
    }
}

// The rules of <doc:Rules> "WatchConnectivity": how data crosses between the phone and the watch. Enforced by the
// simulated WatchConnectivity (WCSession over the link folder of the groups root).

extension RuleCatalog {
    static let watchConnectivityRules: [RuleDescription] = [
        .runtime("wc.activate", .watchConnectivity, "A session is activated, with a delegate, before it sends anything.",
                 apple: ["On start up an app should set a delegate on the default session and call activate."],
                 sources: ["developer.apple.com/documentation/watchconnectivity/wcsession"],
                 enforces: "WCSession refuses to send before activation with WCError sessionNotActivated (7004).",
                 fix: "Set `WCSession.default.delegate` and call `activate()` at launch."),
        .runtime("wc.message", .watchConnectivity, "An interactive message needs a running, reachable counterpart.",
                 apple: ["Interactive messages can only be sent between two actively running apps. They require the counterpart app to be reachable.",
                         "This error occurs when you send an immediate message to an app that isn't running."],
                 sources: ["developer.apple.com/documentation/watchconnectivity/wcsession/sendmessage(_:replyhandler:errorhandler:)", "developer.apple.com/documentation/watchconnectivity/wcerror/code/notreachable"],
                 enforces: "WCSession.sendMessage fails with notReachable (7007) when the counterpart process is not running, and with messageReplyTimedOut (7012) when no reply comes.",
                 fix: "Check `isReachable`, and fall back to transferUserInfo or updateApplicationContext."),
        .runtime("wc.userinfo", .watchConnectivity, "transferUserInfo queues in order and is delivered even after the sender exits.",
                 apple: ["queued on the other device and delivered in the order in which they were sent"],
                 sources: ["developer.apple.com/documentation/watchconnectivity/wcsession/transferuserinfo(_:)"],
                 enforces: "WCSession keeps the queue in the link folder; the receiver gets each transfer, in order, when it next activates.",
                 fix: "Use transferUserInfo for what must arrive, in order, whether or not the counterpart runs."),
        .runtime("wc.context", .watchConnectivity, "updateApplicationContext keeps only the latest dictionary.",
                 apple: ["This method overwrites the previous data dictionary"],
                 sources: ["developer.apple.com/documentation/watchconnectivity/wcsession/updateapplicationcontext(_:)"],
                 enforces: "WCSession replaces the pending context; the counterpart receives only the latest, on its next activation if it is not running.",
                 fix: "Send the whole current state in each context, not a change."),
        .runtime("wc.file", .watchConnectivity, "A transferred file arrives in Documents/Inbox and is removed unless moved during the delegate call.",
                 apple: ["The system will remove any content that has not been moved when this delegate method returns."],
                 sources: ["developer.apple.com/documentation/watchconnectivity/wcsessiondelegate/session(_:didreceive:)"],
                 enforces: "WCSession delivers the file into the receiver's private Documents/Inbox and deletes it when the delegate method returns.",
                 fix: "Move the file out of the inbox inside `session(_:didReceive:)`."),
        .runtime("wc.limits", .watchConnectivity, "Payloads are property lists within the observed size limits.",
                 apple: ["WCErrorCodePayloadTooLarge (7009)", "WCErrorCodePayloadUnsupportedTypes (7010)"],
                 sources: ["WatchConnectivity's WCError.h", "Observed: 65,536 bytes for a message or user info, 262,144 bytes for the application context"],
                 enforces: "WCSession measures each payload's binary property-list encoding and refuses a larger one with payloadTooLarge (7009), a non-plist value with payloadUnsupportedTypes (7010).",
                 fix: "Send large data with transferFile; encode other types as Data first."),
    ]
}

// The rules of <doc:Rules> "WatchConnectivity": how data crosses between the phone and the watch. Enforced by the
// simulated WatchConnectivity (WCSession over the link folder of the groups root).

extension RuleCatalog {
    static let watchConnectivityRules = RuleDescription.parse("""
        wc.activate | runtime | WatchConnectivity
        A session is activated, with a delegate, before it sends anything.
        Apple: On start up an app should set a delegate on the default session and call activate.
        Source: developer.apple.com/documentation/watchconnectivity/wcsession
        Lockstep: WCSession refuses to send before activation with WCError sessionNotActivated (7004).
        Fix: Set `WCSession.default.delegate` and call `activate()` at launch.

        wc.message | runtime | WatchConnectivity
        An interactive message needs a running, reachable counterpart.
        Apple: Interactive messages can only be sent between two actively running apps. They require the counterpart app to be reachable.
        Apple: This error occurs when you send an immediate message to an app that isn't running.
        Source: developer.apple.com/documentation/watchconnectivity/wcsession/sendmessage(_:replyhandler:errorhandler:)
        Source: developer.apple.com/documentation/watchconnectivity/wcerror/code/notreachable
        Lockstep: WCSession.sendMessage fails with notReachable (7007) when the counterpart process is not running, and with messageReplyTimedOut (7012) when no reply comes.
        Fix: Check `isReachable`, and fall back to transferUserInfo or updateApplicationContext.

        wc.userinfo | runtime | WatchConnectivity
        transferUserInfo queues in order and is delivered even after the sender exits.
        Apple: queued on the other device and delivered in the order in which they were sent
        Source: developer.apple.com/documentation/watchconnectivity/wcsession/transferuserinfo(_:)
        Lockstep: WCSession keeps the queue in the link folder; the receiver gets each transfer, in order, when it next activates.
        Fix: Use transferUserInfo for what must arrive, in order, whether or not the counterpart runs.

        wc.context | runtime | WatchConnectivity
        updateApplicationContext keeps only the latest dictionary.
        Apple: This method overwrites the previous data dictionary
        Source: developer.apple.com/documentation/watchconnectivity/wcsession/updateapplicationcontext(_:)
        Lockstep: WCSession replaces the pending context; the counterpart receives only the latest, on its next activation if it is not running.
        Fix: Send the whole current state in each context, not a change.

        wc.file | runtime | WatchConnectivity
        A transferred file arrives in Documents/Inbox and is removed unless moved during the delegate call.
        Apple: The system will remove any content that has not been moved when this delegate method returns.
        Source: developer.apple.com/documentation/watchconnectivity/wcsessiondelegate/session(_:didreceive:)
        Lockstep: WCSession delivers the file into the receiver's private Documents/Inbox and deletes it when the delegate method returns.
        Fix: Move the file out of the inbox inside `session(_:didReceive:)`.

        wc.limits | runtime | WatchConnectivity
        Payloads are property lists within the observed size limits.
        Apple: WCErrorCodePayloadTooLarge (7009)
        Apple: WCErrorCodePayloadUnsupportedTypes (7010)
        Source: WatchConnectivity's WCError.h
        Source: Observed: 65,536 bytes for a message or user info, 262,144 bytes for the application context
        Lockstep: WCSession measures each payload's binary property-list encoding and refuses a larger one with payloadTooLarge (7009), a non-plist value with payloadUnsupportedTypes (7010).
        Fix: Send large data with transferFile; encode other types as Data first.
        """)
}

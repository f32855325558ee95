// The rules of <doc:Rules> "The rest of the extension family": complications, Live Activities, notification service
// and share extensions, and the memory limits of every kind. Enforced by the simulated frameworks and LaunchKit.

extension RuleCatalog {
    static let extensionFamilyRules = RuleDescription.parse("""
        watch.complication | runtime | The rest of the extension family
        A complication is a watch-side widget that reads the watch's App Group; the phone updates it with transferCurrentComplicationUserInfo, within a daily allowance.
        Apple: remainingComplicationUserInfoTransfers
        Source: developer.apple.com/documentation/watchconnectivity/wcsession/transfercurrentcomplicationuserinfo(_:)
        Lockstep: The complication runs as its own process on the simulated watch and reads only the watch's containers; WCSession counts the day's complication transfers and delivers the ones past the allowance as plain user info.
        Fix: Send complication updates sparingly, and keep the watch's copy of the data in the watch's own group.

        activity.lifecycle | runtime | The rest of the extension family
        The app starts a Live Activity only in the foreground and with NSSupportsLiveActivities; the widget extension renders it; the system ends it after 8 hours.
        Apple: NSSupportsLiveActivities
        Apple: ActivityAuthorizationError
        Source: developer.apple.com/documentation/activitykit/displaying-live-data-with-live-activities
        Source: developer.apple.com/documentation/activitykit/activity/request(attributes:content:pushtype:)
        Lockstep: ActivityKit refuses a request from the background or from an app without the key (ActivityAuthorizationError) and one whose attributes and state exceed 4 KB; the widget process renders the activity; the simulated clock ends it after 8 hours.
        Fix: Set NSSupportsLiveActivities in the app's Info.plist and request activities while the app is in the foreground.

        notification.service | runtime | The rest of the extension family
        A mutable-content notification passes through the notification service extension, which has about 30 seconds; otherwise the original content is shown.
        Apple: serviceExtensionTimeWillExpire()
        Source: developer.apple.com/documentation/usernotifications/unnotificationserviceextension
        Lockstep: A push with mutable-content runs lockstep-notification's didReceive in its own process; past the time, or if it ends or exceeds its memory limit, the original content is delivered.
        Fix: Call the content handler promptly and deliver the best content from serviceExtensionTimeWillExpire().

        share.extension | runtime | The rest of the extension family
        A share extension is offered only for items its activation rule accepts, and must complete or cancel the request.
        Apple: NSExtensionActivationRule
        Apple: completeRequest(returningItems:completionHandler:)
        Source: developer.apple.com/documentation/foundation/nsextensioncontext
        Lockstep: The share extension runs in its own process only for items its NSExtensionActivationSupports… keys accept, writes to the App Group, and must call completeRequest or cancelRequest (LockstepFoundation's NSExtensionContext).
        Fix: Declare exactly the item types you handle, and complete the request when the item is saved.

        extension.memory | runtime | The rest of the extension family
        Every extension kind has its own memory limit, enforced by ending the process.
        Apple: EXC_RESOURCE RESOURCE_TYPE_MEMORY (limit=30 MB)
        Source: Observed in crash reports; Apple publishes no figures
        Lockstep: LaunchKit's Supervisor ends an extension above its kind's limit (widget 30 MB, notification service 24 MB, share 120 MB; the last two unconfirmed), or the manifest's memoryLimitMB.
        Fix: Measure the extension's memory with realistic data, and set memoryLimitMB in the manifest to try other limits.
        """)
}

// The rules of <doc:Rules> "The rest of the extension family": complications, Live Activities, notification service
// and share extensions, and the memory limits of every kind. Enforced by the simulated frameworks and LaunchKit.

extension RuleCatalog {
    static let extensionFamilyRules: [RuleDescription] = [
        .runtime("watch.complication", .extensionFamily, "A complication is a watch-side widget that reads the watch's App Group; the phone updates it with transferCurrentComplicationUserInfo, within a daily allowance.",
                 apple: ["remainingComplicationUserInfoTransfers"],
                 sources: ["developer.apple.com/documentation/watchconnectivity/wcsession/transfercurrentcomplicationuserinfo(_:)"],
                 enforces: "The complication runs as its own process on the simulated watch and reads only the watch's containers; WCSession counts the day's complication transfers and delivers the ones past the allowance as plain user info.",
                 fix: "Send complication updates sparingly, and keep the watch's copy of the data in the watch's own group."),
        .runtime("activity.lifecycle", .extensionFamily, "The app starts a Live Activity only in the foreground and with NSSupportsLiveActivities; the widget extension renders it; the system ends it after 8 hours.",
                 apple: ["NSSupportsLiveActivities", "ActivityAuthorizationError"],
                 sources: ["developer.apple.com/documentation/activitykit/displaying-live-data-with-live-activities", "developer.apple.com/documentation/activitykit/activity/request(attributes:content:pushtype:)"],
                 enforces: "ActivityKit refuses a request from the background or from an app without the key (ActivityAuthorizationError) and one whose attributes and state exceed 4 KB; the widget process renders the activity; the simulated clock ends it after 8 hours.",
                 fix: "Set NSSupportsLiveActivities in the app's Info.plist and request activities while the app is in the foreground."),
        .runtime("notification.service", .extensionFamily, "A mutable-content notification passes through the notification service extension, which has about 30 seconds; otherwise the original content is shown.",
                 apple: ["serviceExtensionTimeWillExpire()"],
                 sources: ["developer.apple.com/documentation/usernotifications/unnotificationserviceextension"],
                 enforces: "A push with mutable-content runs lockstep-notification's didReceive in its own process; past the time, or if it ends or exceeds its memory limit, the original content is delivered.",
                 fix: "Call the content handler promptly and deliver the best content from serviceExtensionTimeWillExpire()."),
        .runtime("share.extension", .extensionFamily, "A share extension is offered only for items its activation rule accepts, and must complete or cancel the request.",
                 apple: ["NSExtensionActivationRule", "completeRequest(returningItems:completionHandler:)"],
                 sources: ["developer.apple.com/documentation/foundation/nsextensioncontext"],
                 enforces: "The share extension runs in its own process only for items its NSExtensionActivationSupports… keys accept, writes to the App Group, and must call completeRequest or cancelRequest (LockstepFoundation's NSExtensionContext).",
                 fix: "Declare exactly the item types you handle, and complete the request when the item is saved."),
        .runtime("extension.memory", .extensionFamily, "Every extension kind has its own memory limit, enforced by ending the process.",
                 apple: ["EXC_RESOURCE RESOURCE_TYPE_MEMORY (limit=30 MB)"],
                 sources: ["Observed in crash reports; Apple publishes no figures"],
                 enforces: "LaunchKit's Supervisor ends an extension above its kind's limit (widget 30 MB, notification service 24 MB, share 120 MB; the last two unconfirmed), or the manifest's memoryLimitMB.",
                 fix: "Measure the extension's memory with realistic data, and set memoryLimitMB in the manifest to try other limits."),
    ]
}

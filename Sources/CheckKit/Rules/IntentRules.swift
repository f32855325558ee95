// The rules of <doc:Rules> "App Intents": what an intent returns and which process runs it. Enforced by the
// simulated AppIntents (IntentRouter) and WidgetKit.

extension RuleCatalog {
    static let intentRules: [RuleDescription] = [
        .runtime("intent.perform", .appIntents, "perform() resolves the parameters, acts and returns a result (a value, a dialog); failure is a thrown error.",
                 apple: ["Performs the intent's action and returns a result, after resolving any parameters."],
                 sources: ["developer.apple.com/documentation/appintents/appintent/perform()"],
                 enforces: "AppIntents resolves the parameters, calls perform() in the process that runs the intent, and hands its result, or its error, back to the caller.",
                 fix: "Throw an error with a description the user can read; return `.result(dialog:)` for what Siri says."),
        .runtime("intent.where", .appIntents, "An intent of both app and widget runs in the app when it is running and not suspended, else in the extension.",
                 apple: ["if the app is running and not suspended. Otherwise, it will run in the widget process",
                         "when your app isn't running"],
                 sources: ["developer.apple.com/documentation/appintents/intentexecutiontargets"],
                 enforces: "AppIntents' IntentRouter hands the intent to the running app process when there is one, otherwise runs it in the widget or intents extension; an intent that must open the app is refused in an extension.",
                 fix: "Compile the intent into every target that may run it, and keep its data in the App Group."),
        .runtime("intent.extension-point", .appIntents, "An App Intents extension is an ExtensionKit bundle (com.apple.appintents-extension) in Extensions/; a SiriKit one (com.apple.intents-service) is in PlugIns/.",
                 apple: ["EXAppExtensionAttributes: EXExtensionPointIdentifier com.apple.appintents-extension"],
                 sources: ["developer.apple.com/documentation/appintents/appintentsextension"],
                 enforces: "A manifest's intent bundle takes its extension point by role (BundleKit's Manifest); `check` reads the point of a bundle in Extensions/ from EXAppExtensionAttributes (rule `extension.point`).",
                 fix: "Give an App Intents extension EXAppExtensionAttributes with EXExtensionPointIdentifier = com.apple.appintents-extension."),
    ]
}

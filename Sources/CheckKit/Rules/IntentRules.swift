// The rules of <doc:Rules> "App Intents": what an intent returns and which process runs it. Enforced by the
// simulated AppIntents (IntentRouter) and WidgetKit.

extension RuleCatalog {
    static let intentRules = RuleDescription.parse("""
        intent.perform | runtime | App Intents
        perform() resolves the parameters, acts and returns a result (a value, a dialog); failure is a thrown error.
        Apple: Performs the intent's action and returns a result, after resolving any parameters.
        Source: developer.apple.com/documentation/appintents/appintent/perform()
        Lockstep: AppIntents resolves the parameters, calls perform() in the process that runs the intent, and hands its result, or its error, back to the caller.
        Fix: Throw an error with a description the user can read; return `.result(dialog:)` for what Siri says.

        intent.where | runtime | App Intents
        An intent of both app and widget runs in the app when it is running and not suspended, else in the extension.
        Apple: if the app is running and not suspended. Otherwise, it will run in the widget process
        Apple: when your app isn't running
        Source: developer.apple.com/documentation/appintents/intentexecutiontargets
        Lockstep: AppIntents' IntentRouter hands the intent to the running app process when there is one, otherwise runs it in the widget or intents extension; an intent that must open the app is refused in an extension.
        Fix: Compile the intent into every target that may run it, and keep its data in the App Group.

        intent.extension-point | runtime | App Intents
        An App Intents extension is an ExtensionKit bundle (com.apple.appintents-extension) in Extensions/; a SiriKit one (com.apple.intents-service) is in PlugIns/.
        Apple: EXAppExtensionAttributes: EXExtensionPointIdentifier com.apple.appintents-extension
        Source: developer.apple.com/documentation/appintents/appintentsextension
        Lockstep: A manifest's intent bundle takes its extension point by role (BundleKit's Manifest); `check` reads the point of a bundle in Extensions/ from EXAppExtensionAttributes (rule `extension.point`).
        Fix: Give an App Intents extension EXAppExtensionAttributes with EXExtensionPointIdentifier = com.apple.appintents-extension.
        """)
}

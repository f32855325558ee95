// The process rules of <doc:Rules> "Processes and containers": separate processes, private containers. Enforced by
// LaunchKit (one process per bundle) and AppGroupKit (containers); the App Group rules are in GroupRules.swift.

extension RuleCatalog {
    static let processRules: [RuleDescription] = [
        .runtime("process.separate", .processes, "The host app, each extension and the watch app are separate processes that share no memory, only files.",
                 apple: ["There is no direct communication between an app extension and its containing app; typically, the containing app isn't even running while a contained extension is running."],
                 sources: ["developer.apple.com/library/archive/documentation/General/Conceptual/ExtensibilityPG/ExtensionOverview.html"],
                 enforces: "`lockstep up` and `lockstep run` launch each bundle of the manifest as its own executable and process group (LaunchKit's Supervisor); nothing passes between them but the files of the groups root.",
                 fix: "Share data through an App Group container (defaults, files, SQLite) or WatchConnectivity, never through memory."),
        .runtime("container.private", .processes, "Every bundle has its own private container; nothing another bundle writes there is visible.",
                 apple: ["For security purposes, an iOS app's interactions with the file system are limited to the directories inside the app's sandbox directory."],
                 sources: ["developer.apple.com/library/archive/documentation/FileManagement/Conceptual/FileSystemProgrammingGuide/FileSystemOverview/FileSystemOverview.html"],
                 enforces: "Each simulated process gets its own data container at groups/<device>/Data/<bundle-id> (AppGroupKit's Sandbox and GroupsLayout); `lockstep verify` shows that no other bundle reads it.",
                 fix: "Put what another bundle must read in a group container."),
    ]
}

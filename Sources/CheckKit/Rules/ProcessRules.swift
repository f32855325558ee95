// The process rules of <doc:Rules> "Processes and containers": separate processes, private containers. Enforced by
// LaunchKit (one process per bundle) and AppGroupKit (containers); the App Group rules are in GroupRules.swift.

extension RuleCatalog {
    static let processRules = RuleDescription.parse("""
        process.separate | runtime | Processes and containers
        The host app, each extension and the watch app are separate processes that share no memory, only files.
        Apple: There is no direct communication between an app extension and its containing app; typically, the containing app isn't even running while a contained extension is running.
        Source: developer.apple.com/library/archive/documentation/General/Conceptual/ExtensibilityPG/ExtensionOverview.html
        Lockstep: `lockstep up` and `lockstep run` launch each bundle of the manifest as its own executable and process group (LaunchKit's Supervisor); nothing passes between them but the files of the groups root.
        Fix: Share data through an App Group container (defaults, files, SQLite) or WatchConnectivity, never through memory.

        container.private | runtime | Processes and containers
        Every bundle has its own private container; nothing another bundle writes there is visible.
        Apple: For security purposes, an iOS app's interactions with the file system are limited to the directories inside the app's sandbox directory.
        Source: developer.apple.com/library/archive/documentation/FileManagement/Conceptual/FileSystemProgrammingGuide/FileSystemOverview/FileSystemOverview.html
        Lockstep: Each simulated process gets its own data container at groups/<device>/Data/<bundle-id> (AppGroupKit's Sandbox and GroupsLayout); `lockstep verify` shows that no other bundle reads it.
        Fix: Put what another bundle must read in a group container.
        """)
}

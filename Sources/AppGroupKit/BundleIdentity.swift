extension Sandbox {
    /// Refuses a bundle identifier that cannot name a private container, before anything is created for it.
    ///
    /// The identifier is a folder name (`<root>/<device>/Data/<bundle-id>`, with `tmp` inside): one with `/` or `..`
    /// would put that folder outside the groups root. A launcher calls this when it installs a manifest, so a bad
    /// identifier stops the launch with nothing created; `Sandbox.init` validates the same way for a process.
    /// - Throws: `.invalidIdentifier` (exit 2, rule `bundle-id.charset`).
    public static func validateBundleIdentifier(_ identifier: String) throws(AppGroupError) {
        try Identifier.validateBundle(identifier)
    }
}

extension Sandbox {
    /// Refuses an App Group identifier that `groupContainer(_:)` would refuse (rule `group.id-format`): what `check`
    /// reports of a project, so that a group the device refuses never passes the check.
    /// - Throws: `.invalidIdentifier` (exit 2).
    public static func validateGroupIdentifier(_ identifier: String) throws(AppGroupError) {
        try Identifier.validateGroup(identifier)
    }
}

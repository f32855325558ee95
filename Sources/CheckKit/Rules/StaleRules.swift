// The runtime's own version rules (<doc:Rules> "The stale extension"): a simulated process runs only at its
// installed app's build. Enforced by the runtime (LockstepSystem's SharedWriteGate, armed by LockstepRuntime); the
// check a process makes before it starts, rule `runtime.version-parity`, is the version rules' own comparison and is
// described beside it in VersionRules.swift.

extension RuleCatalog {
    static let staleRules = RuleDescription.parse("""
        runtime.stale | runtime | The stale extension
        An extension process from an old build stops before its next write to shared data once the app is reinstalled at another build.
        Apple: (Lockstep) On a device the system terminates the extensions of an app it updates; an old build never writes again.
        Source: developer.apple.com/documentation/xcode/sigkill
        Lockstep: Every write to shared data passes LockstepSystem's SharedWriteGate, which LockstepRuntime arms with the installed build; a process whose build is no longer installed says which build it was and which is installed, writes nothing, and exits 78. A newer schema's data is never written by an older build.
        Fix: Read shared data again when the process starts; never cache a schema across an update.
        """)
}

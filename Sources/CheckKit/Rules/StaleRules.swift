// The runtime's own version rules (<doc:Rules> "The stale extension"): a simulated process runs only at its
// installed app's build. Enforced by the runtime (BundleKit's VersionParity, LockstepRuntime's SimulatedProcess).

extension RuleID {
    public static let runtimeVersionParity: RuleID = "runtime.version-parity"
}

extension RuleCatalog {
    static let staleRules = RuleDescription.parse("""
        runtime.version-parity | runtime | The stale extension
        A simulated process refuses to start when its bundle's CFBundleVersion or CFBundleShortVersionString differs from the installed containing app's.
        Apple: The CFBundleVersion of an app extension ('2') must match that of its containing parent app ('3').
        Apple: ITMS-90473: CFBundleVersion Mismatch
        Source: Xcode's build warning
        Source: App Store Connect: ITMS-90473
        Lockstep: Every simulated process compares its own versions with the installed manifest's app before it starts (LockstepRuntime's SimulatedProcess.checkVersions, with BundleKit's VersionParity sentences) and exits 78 with Apple's wording and [runtime.version-parity]; `lockstep up` reports the bundle as exited before it was ready.
        Fix: Build and install every bundle at the app's versions (`lockstep bump` sets them in a project or manifest).

        runtime.stale | runtime | The stale extension
        An extension process from an old build stops before its next write to shared data once the app is reinstalled at another build.
        Apple: (Lockstep) On a device the system terminates the extensions of an app it updates; an old build never writes again.
        Source: developer.apple.com/documentation/xcode/sigkill
        Lockstep: Every write to shared data passes LockstepSystem's SharedWriteGate, which LockstepRuntime arms with the installed build; a process whose build is no longer installed says which build it was and which is installed, writes nothing, and exits 78. A newer schema's data is never written by an older build.
        Fix: Read shared data again when the process starts; never cache a schema across an update.
        """)
}

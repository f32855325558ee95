import AppGroupKit
import Foundation

/// What the proof tests share with the `lockstep __bench-worker` processes they start.
enum Proof {
    /// `LOCKSTEP_STRESS=1` runs the full counts (8 × 1,000 increments, 200 SIGKILLs, 20,000 fuzz cases per format).
    static var stress: Bool { ProcessInfo.processInfo.environment["LOCKSTEP_STRESS"] == "1" }

    /// The identity the workers take (the bench bundle, `OurFigures` in the `lockstep` executable).
    static let bundleIdentifier = "com.example.bench"
    static let group = "group.com.example.bench"

    /// The workers' group defaults suite under `groupsRoot`, opened fresh (as another process would).
    static func suite(_ groupsRoot: String) throws -> GroupDefaults {
        let sandbox = try Sandbox(root: GroupsRoot(path: groupsRoot),
                                  identity: ProcessIdentity(bundleIdentifier: bundleIdentifier, appGroups: [group]))
        return try GroupDefaults(suiteName: group, sandbox: sandbox)!
    }
}

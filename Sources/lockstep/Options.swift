import Foundation

/// The groups root every verb uses: `--groups DIR`, else `$LOCKSTEP_GROUPS`, else `./groups` (DESIGN.md).
func groupsRoot(_ arguments: Arguments) -> String {
    if let explicit = arguments.value("--groups"), !explicit.isEmpty { return explicit }
    if let variable = ProcessInfo.processInfo.environment["LOCKSTEP_GROUPS"], !variable.isEmpty { return variable }
    return "groups"
}

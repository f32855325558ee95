import AppGroupKit

/// The groups root every verb uses: `--groups DIR`, else `$LOCKSTEP_GROUPS`, else `./groups` (DESIGN.md).
func groupsRoot(_ arguments: Arguments) -> String {
    GroupsRoot.resolve(explicit: arguments.value("--groups")).path
}

import LockstepSystem

// A bundle that can play any role in LaunchKit's process tests. Filled in by the launching issue.
Standard.setUp()
print("probe ready")

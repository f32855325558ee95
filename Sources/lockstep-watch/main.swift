import LockstepSystem

// The simulated watch process. Filled in by the reference-app issue.
Standard.setUp()
Standard.error("lockstep-watch: not built yet (the reference-app issue is open).")
exit(.failure)

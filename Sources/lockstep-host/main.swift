import LockstepSystem

// The simulated host process. Filled in by the reference-app issue.
Standard.setUp()
Standard.error("lockstep-host: not built yet (the reference-app issue is open).")
exit(.failure)

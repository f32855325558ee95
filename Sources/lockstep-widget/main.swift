import LockstepSystem

// The simulated widget process. Filled in by the reference-app issue.
Standard.setUp()
Standard.error("lockstep-widget: not built yet (the reference-app issue is open).")
exit(.failure)

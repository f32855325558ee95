import LockstepSystem

// The simulated intent process. Filled in by the reference-app issue.
Standard.setUp()
Standard.error("lockstep-intent: not built yet (the reference-app issue is open).")
exit(.failure)

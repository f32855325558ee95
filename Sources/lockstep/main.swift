import LockstepSystem

// The `lockstep` command line: parse the verb, run it, map the outcome to the contract's exit status.
Standard.setUp()
let status = CommandLineTool.main(Array(CommandLine.arguments.dropFirst()))
exit(status)

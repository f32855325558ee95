import Foundation
import LockstepSystem

// A bare Foundation process: the baseline `lockstep bench` compares the idle widget's resident memory with, and
// (started with --help) the one start any Swift launcher pays before `up` can spawn a bundle. It links Foundation
// as the simulated executables do, touches it with a Date/JSON round trip, says it is ready and idles until stdin
// closes.
Standard.setUp()
if CommandLine.arguments.dropFirst().first == "--help" {
    print("usage: lockstep-idle (started by lockstep bench: prints 'idle ready', exits when stdin closes)")
    exit(0)
}
let stamp = ["now": Date().timeIntervalSince1970]
_ = try JSONSerialization.jsonObject(with: JSONSerialization.data(withJSONObject: stamp))
print("idle ready")
while readLine() != nil {}

// The one block Lockstep needs: Foundation's UserDefaults cannot be replaced from outside.
#if os(Linux)
import LockstepFoundation
typealias UserDefaults = LockstepFoundation.UserDefaults
#endif

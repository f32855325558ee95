// The App Intents extension as on iOS: the intents and shortcuts of HabitsShared, found where the extension links them.
import AppIntents
import HabitsShared

@main
struct HabitsIntentsExtension: AppIntentsExtension {}

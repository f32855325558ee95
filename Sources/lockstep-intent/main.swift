import HabitCore

// The simulated App Intents extension: `list`, `perform NAME [--PARAMETER VALUE]…` (`IntentApp.main`).
IntentApp.main()

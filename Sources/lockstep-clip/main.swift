import HabitCore

// The Habits App Clip: `add NAME [EMOJI]`, `status`; one command, then it exits (`ClipApp.main`).
ClipApp.main()

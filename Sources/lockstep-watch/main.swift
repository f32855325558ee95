import HabitCore

// The simulated watch app, on the watch device: long-running with no arguments, else one command (`WatchApp.main`).
WatchApp.main()

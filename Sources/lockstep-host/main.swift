import HabitCore

// The simulated containing app: the long-running app with no arguments, else one command (`HostApp.main`).
HostApp.main()

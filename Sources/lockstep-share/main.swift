import HabitCore
import LockstepFoundation

// The Habits share extension: `--text NAME` shares a habit's name from another app.
ShareExtension.main(principal: HabitsShareHandler())

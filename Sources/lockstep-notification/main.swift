import HabitCore
import UserNotifications

// The Habits notification service extension: `deliver 'PAYLOAD-JSON'` (or lines on stdin) is a push arriving.
NotificationServiceExtension.main(service: HabitsNotificationService())

// The notification service extension as a simulated process: `deliver 'PUSH-PAYLOAD'`.
import HabitsShared
import UserNotifications

NotificationServiceExtension.main(service: NotificationService())

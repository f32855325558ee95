import HabitCore
import SwiftUI
import WidgetKit

// The Habits widget extension, as its iOS target's one file declares it: the widgets live in the shared module.
@main
struct HabitsWidgetBundle: WidgetBundle {
    var body: some Widget {
        HabitsWidget()
        HabitFocusWidget()
        HabitsLiveActivity()
        // iOS 18: a control lives in the widget extension too, beside the widgets.
        HabitControl()
        // Served when the manifest starts this executable as the watch's complication bundle.
        HabitsComplication()
    }
}

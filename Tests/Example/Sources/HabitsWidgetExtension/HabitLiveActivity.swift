import ActivityKit
import HabitsShared
import SwiftUI
import WidgetKit

struct HabitLiveActivity: Widget {
    var body: some WidgetConfiguration {
        ActivityConfiguration(for: HabitActivityAttributes.self) { context in
            HStack {
                Text(context.attributes.name).font(.headline)
                Spacer()
                Text("\(context.state.done)/\(context.state.total)")
            }
            .padding()
            .activityBackgroundTint(Color.black.opacity(0.2))
        } dynamicIsland: { context in
            DynamicIsland {
                DynamicIslandExpandedRegion(.leading) {
                    Image(systemName: "figure.walk")
                }
                DynamicIslandExpandedRegion(.trailing) {
                    Text("\(context.state.done)/\(context.state.total)")
                }
                DynamicIslandExpandedRegion(.bottom) {
                    Text(context.attributes.name)
                }
            } compactLeading: {
                Image(systemName: "figure.walk")
            } compactTrailing: {
                Text("\(context.state.done)")
            } minimal: {
                Text("\(context.state.done)")
            }
            .keylineTint(.green)
        }
    }
}

// The rules of <doc:Rules> "WidgetKit", with the interactive and configurable widgets of <doc:Rules> "The rest of
// the extension family". Enforced by the simulated WidgetKit (WidgetSystem, WidgetCenter, WidgetHost) and
// LaunchKit's Supervisor (memory).

extension RuleCatalog {
    static let widgetRules = RuleDescription.parse("""
        widget.provider | runtime | WidgetKit
        A widget is a TimelineProvider: a synchronous placeholder, a fast snapshot, a timeline of entries; its views read only the entry.
        Apple: placeholder(in:) … getSnapshot(in:completion:) … getTimeline(in:completion:)
        Source: developer.apple.com/documentation/widgetkit/timelineprovider
        Lockstep: The simulated WidgetKit runs the provider in the widget extension's own process and renders each entry with the views it is given; a completion called twice keeps the first value.
        Fix: Fetch data in getTimeline (from the App Group), never in placeholder; keep views stateless.

        widget.policy | runtime | WidgetKit
        A TimelineReloadPolicy gives the earliest date WidgetKit asks for a new timeline; an entry is shown at its date or later, never earlier.
        Apple: the earliest date WidgetKit requests a new timeline
        Source: developer.apple.com/documentation/widgetkit/timelinereloadpolicy
        Lockstep: WidgetSystem asks again at the policy's date (.atEnd, .after, .never) on the simulated clock and shows each entry from its date on, the placeholder before the first.
        Fix: End a timeline with .atEnd or .after(date) for data that changes on a schedule, and reload from the app for the rest.

        widget.reload | runtime | WidgetKit
        reloadTimelines(ofKind:) reloads every widget of a kind; reloadAllTimelines() every widget of the app; a throttled reload is not acknowledged.
        Apple: Reloads the timelines for all configured widgets of a specified kind.
        Source: developer.apple.com/documentation/widgetkit/widgetcenter
        Lockstep: WidgetCenter writes the request to the group container; the widget process reloads every instance of the kind, subject to widget.budget.
        Fix: Reload the kinds whose data changed, after the change is written.

        widget.budget | runtime | WidgetKit
        A frequently viewed widget gets 40 to 70 reloads a day; reloads while the app is in the foreground are not counted.
        Apple: For a widget the user frequently views, a daily budget typically includes from 40 to 70 refreshes.
        Source: developer.apple.com/documentation/widgetkit/keeping-a-widget-up-to-date
        Lockstep: WidgetCenter counts each background reload of a kind over the last 24 simulated hours (`LOCKSTEP_WIDGET_BUDGET` sets the figure) and drops the ones past the budget without acknowledging them; foreground and intent reloads are free.
        Fix: Reload only when the data the widget shows changed, and from the foreground when you can.

        widget.families | runtime | WidgetKit
        A widget supports its declared families: systemSmall to systemExtraLarge, and the accessory families.
        Apple: systemSmall, systemMedium, systemLarge, systemExtraLarge, accessoryCircular, accessoryRectangular, accessoryInline, accessoryCorner
        Source: developer.apple.com/documentation/widgetkit/widgetfamily
        Lockstep: The simulated WidgetKit renders each instance at its family's size and refuses a family the configuration does not support.
        Fix: Declare `.supportedFamilies` and lay the view out for each.

        widget.overflow | runtime | WidgetKit
        A widget's view fits its family's size: what lies past the widget's edges is cut off, as the system clips the view to the widget's shape.
        Apple: Aim for a comfortable density of information. … when content is too dense, the widget isn’t glanceable.
        Source: developer.apple.com/design/human-interface-guidelines/widgets (and its family sizes, in points; Apple publishes no sentence on content larger than them)
        Lockstep: The simulated WidgetKit lays the view out as SwiftUI does, centered in the content margins, and when its frame reaches past the widget's bounds, `lockstep-widget render`, the serving widget process (stderr, once per change) and the gallery name the kind, the family, the points it is too tall or too wide and the views that reach past; the picture marks each such edge with a red bar.
        Fix: Give text a lineLimit and a minimumScaleFactor, make images resizable with a frame, and lay each family out with @Environment(\\.widgetFamily).

        widget.memory | runtime | WidgetKit
        A widget extension is ended above its memory limit (observed: 30 MB).
        Apple: EXC_RESOURCE (RESOURCE_TYPE_MEMORY: high watermark memory limit exceeded) (limit=30 MB)
        Source: Observed in crash reports; Apple publishes no figure
        Lockstep: LaunchKit's Supervisor measures each widget process's own memory (RssAnon, iOS's footprint) and kills it above 30 MB, or the manifest's memoryLimitMB, with the crash report's line.
        Fix: Keep images small and decode only what the entry shows; do not load the whole database.

        widget.interactive | runtime | The rest of the extension family
        A Button or Toggle with an intent runs the intent's perform() in the widget extension's process, then reloads the widget.
        Apple: Setting this property to true generates an error if the app intent runs in an app extension.
        Source: developer.apple.com/documentation/widgetkit/adding-interactivity-to-widgets-and-live-activities
        Source: developer.apple.com/documentation/appintents/appintent/openappwhenrun
        Lockstep: A tap (`lockstep` scenario step or the widget's own command) runs the intent in the widget process and reloads its timelines without spending the budget; an intent that must open the app runs in the app.
        Fix: Compile the intent into the widget extension and keep its data in the App Group.

        widget.configurable | runtime | The rest of the extension family
        Each instance of an AppIntentConfiguration widget holds its own intent values; its provider gets them.
        Apple: AppIntentConfiguration(kind:intent:provider:content:)
        Source: developer.apple.com/documentation/widgetkit/appintentconfiguration
        Source: developer.apple.com/documentation/widgetkit/widgetcenter/getcurrentconfigurations(_:)
        Lockstep: The simulated WidgetKit keeps each instance's configuration, passes it to snapshot(for:in:) and timeline(for:in:), and lists one WidgetInfo per instance.
        Fix: Read the configuration from the intent parameter, not from shared state.
        """)
}

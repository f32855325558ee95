import WidgetKit

/// The app's side of the suspension tests (rule `lock.dead10cc`): it asks for its widgets' timelines again, as an app
/// does after it changed their data, which wakes a suspended widget extension.
enum ProbeWidgets {
    static func reloadAll() {
        WidgetCenter.shared.reloadAllTimelines()
        print("asked every widget for a new timeline")
    }
}

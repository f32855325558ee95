/// The built-in `demo` scenario that `lockstep up` runs with no arguments, on the embedded default manifest (the
/// Habits app): host, widget and watch run side by side, the intents extension runs once per request.
///
/// Every `wait` measures how long a change took to cross from one process to another. A `wait` sees the lines
/// printed since the previous step began, so each one directly follows the step that causes its line (or a `send`
/// that asks the bundle to print its state). The `==` headings name the rules each part exercises, for the checklist.
public enum DemoScenario {
    /// The demo's first steps, which a scenario of its own starts from too: the app adds the three habits and the
    /// widget shows them.
    public static let addHabits = """
    send host add Meditate 🧘
    wait host added 🧘 Meditate
    send host add Read 📚
    wait host added 📚 Read
    send host add Walk 🚶
    wait widget 0/3 habits done
    """

    public static let text = """
    # The Habits demo: every step below crosses a process boundary.

    == The app adds three habits to the shared SQLite store; the widget reloads and renders 0/3 [process.separate, sqlite.shared, widget.reload, widget.provider, widget.families]
    \(addHabits)

    == Siri runs CompleteHabit: the intent runs in the app, which is running, and the widget reloads [intent.perform, intent.where, widget.reload]
    run intent perform CompleteHabit --habit Meditate
    wait widget 1/3 habits done
    expect-status 0
    expect-output Marked Meditate as completed!
    expect-output performed in the app process

    == The watch, on its own device, has today's list from the application context and toggles Read by message through the phone [group.watch-separate, wc.activate, wc.context, wc.message]
    send watch list
    wait watch 🧘 Meditate ✓
    send watch toggle Read
    wait watch toggled Read via sendMessage → completed
    send widget render accessoryInline
    wait widget 2/3 habits done

    == In the background every reload counts against the widget's daily budget; in the foreground none did [widget.budget, widget.reload]
    send host background
    wait host in the background
    send host reload
    wait widget budget 1/70 used

    == With the app closed, Siri's intent runs in the extension and the watch's toggle waits in the user-info queue [intent.where, wc.userinfo]
    send host quit
    expect-exit host 0
    run intent perform ListIncomplete
    expect-output 1 habit left today: Walk.
    expect-output performed in the extension process
    send watch toggle Walk
    wait watch queued Walk → completed as user info #1
    launch host
    wait host watch user info
    send widget render accessoryInline
    wait widget 3/3 habits done

    == A day passes on the shared clock: the .atEnd policy brings the new day's timeline [widget.policy]
    advance 1d
    wait widget policy .atEnd reached

    == The app is reinstalled at build 2: every process of build 1 stops with the stale-build message [runtime.stale]
    reinstall --build 2
    expect-exit widget 78
    expect-exit host 78
    expect-exit watch 78
    expect-exit complication 78

    == Relaunched at build 2, everything carries on from the shared store and the link [runtime.version-parity, sqlite.shared, wc.context]
    launch host
    launch widget
    wait widget first timeline
    launch watch
    launch complication
    send watch list
    wait watch 🧘 Meditate ·
    run intent perform ListIncomplete
    expect-output 3 habits left today: Meditate, Read, Walk.

    == A tap on the widget's Walk button runs the CompleteHabit it holds in the widget's own process, and the widget reloads without spending its budget [widget.interactive]
    send widget tap Walk
    wait widget CompleteHabit tapped in the widget; not counted: the person's own action

    == The person sets up the bundle's focus widget (an AppIntentConfiguration) for Walk: it reloads with its new settings, budget-free [widget.configurable]
    send widget --kind HabitFocus configure --habit Walk
    wait widget reloaded HabitFocus (configuration changed; not counted: the person's own action
    send widget --kind HabitFocus render systemSmall
    wait widget ✓ done

    == The app sends today's progress to the watch face: the watch app keeps it in the watch's own group container, and the complication reloads from there [watch.complication]
    send host complication
    wait host of 50 left today
    wait complication ⌚ 1/3 habits
    send complication render accessoryCorner
    wait complication 33%

    == A reminder push with mutable-content passes through the notification service extension, which reads the shared store [notification.service]
    run notification deliver '{"aps":{"alert":{"title":"Habits","body":"Time to check in"},"mutable-content":1}}'
    expect-output shown: Habits — 2 left today: Meditate, Read
    expect-output from the service extension

    == The app starts a Live Activity in the foreground and the widget extension renders it; from the background the request is refused; the system ends it after 8 hours [activity.lifecycle]
    send host activity start Walk
    wait widget 🚶 Walk ✓ · 1/3 habits done
    send host toggle Read
    send host activity update
    wait widget 🚶 Walk ✓ · 2/3 habits done
    send host background
    send host activity start Read
    wait host ActivityAuthorizationError.visibility
    send host foreground
    advance 8h
    wait widget ended by the system after 8 hours

    == Text shared from another app: the activation rule offers the share extension, which saves a habit to the App Group and completes the request; the app sees it; a URL is not offered [share.extension]
    run share --text Stretch
    expect-output request completed
    send host list
    wait host 📥 Stretch
    run share --url https://example.com
    expect-status 1
    expect-output does not offer

    == The App Clip writes to the App Group it shares with the app; the full app installed over it finds the habit there, not in the clip's own container [clip.container]
    run clip add Hydrate 💧
    expect-output App Clip added 💧 Hydrate
    install-over-clip
    send host list
    wait host 💧 Hydrate
    """
}

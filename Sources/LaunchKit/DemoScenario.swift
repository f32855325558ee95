/// The built-in `demo` scenario that `lockstep up` runs with no arguments, on the embedded default manifest (the
/// Habits app): host, widget and watch run side by side, the intents extension runs once per request.
///
/// Every `wait` measures how long the change took to cross from one process to another; the `==` headings name the
/// rules of RULES.md each part exercises, for the final checklist.
public enum DemoScenario {
    public static let text = """
    # The Habits demo: every line below crosses a process boundary.

    == The app adds three habits to the shared SQLite store; the widget reloads and renders 0/3 [process.separate, sqlite.shared, widget.reload, widget.provider, widget.families]
    send host add Meditate 🧘
    wait host added 🧘 Meditate
    send host add Read 📚
    wait host added 📚 Read
    send host add Walk 🚶
    wait widget 0/3 habits done

    == Siri runs CompleteHabit: the intent goes to the running app, which writes and reloads the widget [intent.perform, intent.where]
    run intent perform CompleteHabit --habit Meditate
    expect-status 0
    expect-output Marked Meditate as completed!
    expect-output performed in the app process
    wait widget 1/3 habits done

    == The watch, on its own device, gets today's list and toggles Read through the phone [group.watch-separate, wc.activate, wc.context, wc.message]
    wait watch 🧘 Meditate ✓
    send watch toggle Read
    wait watch toggled Read via sendMessage → completed
    wait host watch message
    wait widget 2/3 habits done

    == In the background every reload counts against the widget's daily budget [widget.budget, widget.reload]
    send host background
    wait host in the background
    send host reload
    wait widget budget 1/70 used

    == A day passes on the shared clock: the .atEnd policy brings a new timeline for the new day [widget.policy, widget.budget]
    advance 1d
    wait widget policy .atEnd reached

    == The app is reinstalled at build 2: processes of build 1 stop before their next shared write [runtime.stale, runtime.version-parity]
    reinstall --build 2
    run host reload
    expect-status 0
    expect-exit widget 78
    send host reload
    expect-exit host 78

    == Relaunched at build 2, everything carries on from the shared store [runtime.version-parity, sqlite.shared]
    launch host
    launch widget
    wait widget 0/3 habits done
    run intent perform ListIncomplete
    expect-output 3 habits left today: Meditate, Read, Walk.
    """
}

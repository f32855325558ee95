import AppGroupKit
import LockstepFoundation

/// Small programs of Lockstep's own in the shape of public reports of sharing bugs between an app and its
/// extensions (issue 43), written against Foundation's names as a team's code is: each has the bug's form and the
/// known fix's, behind `--fixed`. Under realistic device timing the bug shows; under strict timing both pass, which
/// is why strict mode hides it.
enum SharingShapes {
    /// The probe's first App Group suite, as `UserDefaults(suiteName:)` gives it.
    static func defaults(_ probe: Probe) throws -> LockstepFoundation.UserDefaults {
        guard let group = probe.process.bundle.appGroups.first, let defaults = LockstepFoundation.UserDefaults(suiteName: group) else {
            throw ProbeError("lockstep-probe: the bundle claims no App Group.")
        }
        return defaults
    }

    /// The words of a command with `--fixed` taken out, and whether it was there.
    static func fixed(_ argument: String) -> (words: [String], fixed: Bool) {
        let words = argument.split(separator: " ").map(String.init)
        return (words.filter { $0 != "--fixed" }, words.contains("--fixed"))
    }

    /// Runs one shape's command; false when `command` is none of theirs.
    static func perform(_ command: String, _ argument: String, probe: Probe) throws -> Bool {
        switch command {
        case "save-place":
            // The shape of sobri909/ArcMini #98: the app keeps the current place in the group's defaults, the
            // extension shows it, and stays minutes behind until the app saves explicitly. The fix: synchronize().
            let (words, fixed) = fixed(argument)
            let defaults = try defaults(probe)
            defaults.set(words.joined(separator: " "), forKey: "currentPlace")
            if fixed { defaults.synchronize() }
            print("saved place \(words.joined(separator: " "))\(fixed ? " and synchronized" : "")")
        case "publish-post":
            // The shape of wordpress-mobile/WordPress-iOS PR #2552: write the value, then tell the widget (a Darwin
            // notification); the widget reads before the write has reached it. The fix: flush before telling.
            let (words, fixed) = fixed(argument)
            let defaults = try defaults(probe)
            defaults.set(words.joined(separator: " "), forKey: "latestPost")
            if fixed { defaults.synchronize() }
            try DarwinNotificationCenter(sandbox: probe.process.sandbox()).post("com.example.posts-changed")
            print("published \(words.joined(separator: " "))\(fixed ? " (synchronized first)" : ""), told the widget")
        case "show-posts":
            // The widget's side: on each notification, it reads the latest post and shows it.
            let defaults = try defaults(probe)
            let center = try DarwinNotificationCenter(sandbox: probe.process.sandbox())
            probe.observations.append(try center.observe("com.example.posts-changed") { _ in
                print("widget shows \(defaults.string(forKey: "latestPost") ?? "no post")")
            })
            print("showing posts")
        default:
            return false
        }
        return true
    }
}

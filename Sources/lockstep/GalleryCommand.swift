import AppGroupKit
import LaunchKit
import LockstepSystem

enum GalleryCommand: Command {
    static let name = "gallery"
    static let summary = "Write one HTML page with the latest picture of every widget and Live Activity"
    static let help = """
        Usage: lockstep gallery [--groups DIR] [--out FILE]

        A widget extension serving under `lockstep up` or `run` draws every rendering into its group container's
        renders folder (.lockstep/widgetkit/renders/): each widget in each family and in each rendering mode
        WidgetKit draws it in (full colour and accented on the Home Screen and the watch face, vibrant on the Lock
        Screen), on its process's default device (iPhone 15, Apple Watch 45mm), light, at the Large Dynamic Type
        size; each Live Activity on the Lock Screen and in the Dynamic Island (expanded, compact leading and
        trailing, minimal). This writes one self-contained HTML page of the latest of them, a family's modes side by
        side, each captioned with the device it was drawn on, to FILE (default: <groups>/gallery.html), replacing it
        atomically, and prints its path. `lockstep-widget render FAMILY --device NAME --appearance dark
        --dynamic-type SIZE` draws one on another device or appearance.

        Exit statuses: 0 written, 2 FILE cannot be written (nothing is), 64 usage.
        """

    static func run(_ arguments: [String]) throws -> ExitStatus {
        let parsed = try Arguments(arguments, options: ["--groups", "--out"], command: name)
        guard parsed.operands.isEmpty else {
            throw UsageError("lockstep gallery: unexpected '\(parsed.operands[0])'; see 'lockstep gallery --help'.")
        }
        let out = parsed.value("--out") ?? GroupsLayout(root: parsed.groupsRoot).gallery
        let count = try Gallery.write(groupsRoot: parsed.groupsRoot, to: out)
        print("\(out) (\(count) picture\(count == 1 ? "" : "s"))")
        return .success
    }
}

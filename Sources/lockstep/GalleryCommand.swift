import AppGroupKit
import LaunchKit
import LockstepSystem

enum GalleryCommand: Command {
    static let name = "gallery"
    static let summary = "Write one HTML page with the latest picture of every widget and Live Activity"
    static let help = """
        Usage: lockstep gallery [--groups DIR] [--out FILE]

        A widget extension serving under `lockstep up` or `run` draws every rendering into its group container's
        renders folder (.lockstep/widgetkit/renders/): each widget in each family, each Live Activity on the Lock
        Screen and in the Dynamic Island (expanded, compact leading and trailing, minimal). This writes one
        self-contained HTML page of the latest of them, the SVG inlined, to FILE (default: <groups>/gallery.html),
        replacing it atomically, and prints its path.

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

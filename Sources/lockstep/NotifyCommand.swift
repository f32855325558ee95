import AppGroupKit
import LockstepSystem

enum NotifyCommand: Command {
    static let name = "notify"
    static let summary = "Post or wait for a Darwin notification"
    static let help = """
        Usage: lockstep notify --as BUNDLE-ID (post NAME | wait NAME [--timeout S] [--after N]) [--manifest F] [--groups DIR]

        Darwin notifications carry only a name and reach every process on the same simulated device (the
        bundle's: phone, or watch for the watch app). Each name has a counter that every post increments.

          post NAME   posts NAME and prints its counter after the post
          wait NAME   waits until NAME is posted and prints the new counter; with --after N, returns at once if
                      the counter is already past N (catching up on posts made while the caller was not running)

        Exit statuses: 0 posted / arrived, 1 --timeout ran out with no post, 2 invalid name or unknown bundle,
        64 usage, 75 busy (lock wait timed out).
        """

    static func run(_ arguments: [String]) throws -> ExitStatus {
        let arguments = try Arguments(arguments, options: BundleSandbox.options.union(["--timeout", "--after"]), command: name)
        guard arguments.operands.count == 2, ["post", "wait"].contains(arguments.operands[0]) else {
            throw UsageError("lockstep notify: give 'post NAME' or 'wait NAME'; see 'lockstep notify --help'.")
        }
        let notificationName = arguments.operands[1]
        let timeout = try number(arguments, "--timeout", Double.init)
        let after = try number(arguments, "--after", UInt64.init)
        if arguments.operands[0] == "post", timeout != nil || after != nil {
            throw UsageError("lockstep notify: '--timeout' and '--after' apply to 'wait' only; see 'lockstep notify --help'.")
        }
        let center = try DarwinNotificationCenter(sandbox: BundleSandbox.resolve(arguments, command: name))
        if arguments.operands[0] == "post" {
            print(try center.post(notificationName))
            return .success
        }
        guard let counter = try center.wait(notificationName, after: after, timeout: timeout) else {
            Standard.error("lockstep notify: '\(notificationName)' was not posted within \(arguments.value("--timeout") ?? "") s.")
            return .failure
        }
        print(counter)
        return .success
    }

    private static func number<T: Comparable & Numeric>(_ arguments: Arguments, _ option: String, _ parse: (String) -> T?) throws -> T? {
        guard let text = arguments.value(option) else { return nil }
        guard let value = parse(text), value >= 0 else {
            throw UsageError("lockstep notify: '\(option)' needs a non-negative number, not '\(text)'.")
        }
        return value
    }
}

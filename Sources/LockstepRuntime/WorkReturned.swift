import AppGroupKit
import Foundation
import LockstepSystem

/// The work-returned line (rule `lock.dead10cc`): an extension says on stdout that a unit of its work — a timeline,
/// an intent, a notification — has returned to the system, `work returned <detail>`, optionally ending
/// `; next in <seconds> s` when it has more to do by itself at a time it knows (a widget's next entry or reload date).
/// Under realistic device timing the launcher suspends it then, as iOS suspends an extension whose work returned,
/// and kills it with `0xdead10cc` if it still holds a lock in a shared container.
///
/// Lockstep's own runtimes (WidgetKit's widget process, the App Intents extension, the notification service) print
/// it through `announce`, the one place that decides whether to: only under realistic timing, so that strict output
/// stays as it was. A bundle in any language may print the line itself.
public enum WorkReturned {
    /// The line's first words.
    public static let prefix = "work returned"

    /// Whether this process announces its returned work: it runs under realistic device timing (`DeviceTiming`,
    /// from its environment). An invalid timing is refused where shared defaults are opened; here it counts as strict.
    public static let announces: Bool = (try? DeviceTiming.current())?.isRealistic == true

    /// The variable the launcher (`lockstep up`'s supervisor) sets to `1` when it suspends a bundle after its work
    /// returned and wakes it again with a line on stdin when work is due.
    public static let suspendedVariable = "LOCKSTEP_SUSPENDED_AFTER_WORK"

    /// Whether this process is suspended after each announcement and woken by a line (`suspendedVariable`): it then
    /// does nothing after the announcement until the next line — no look at its requests, no lock taken — as a
    /// suspended extension does nothing. Under `run` or `SimulatedDevice` nothing suspends it and it goes on.
    public static let waitsForWake: Bool = announces && ProcessEnvironment.value(suspendedVariable) == "1"

    /// Prints `work returned DETAIL` (and `; next in N s` when `nextIn` is given) on stdout, under realistic timing
    /// only.
    /// - Parameters:
    ///   - detail: what returned, a few words (`after perform CompleteHabit`).
    ///   - nextIn: seconds until the process has work due by itself, if any.
    public static func announce(_ detail: String, nextIn: Double? = nil) {
        guard announces else { return }
        print(line(detail, nextIn: nextIn))
    }

    /// The line `announce` prints.
    static func line(_ detail: String, nextIn: Double?) -> String {
        var line = detail.isEmpty ? prefix : "\(prefix) \(detail)"
        if let nextIn {
            // Tenths of a second, rounded up: a wake-up never comes before the work is due, need not be finer, and
            // the line stays short.
            line += "; next in \(String(format: "%.1f", (max(0, nextIn) * 10).rounded(.up) / 10)) s"
        }
        return line
    }

    /// A work-returned line as the launcher reads it.
    public struct Line: Equatable, Sendable {
        /// Seconds until the process has work due by itself (`; next in N s`), if it said.
        public let nextIn: Double?
    }

    /// Reads `text` as a work-returned line: nil when it is none (`work returned` or `work returned …`).
    public static func parse(_ text: String) -> Line? {
        guard text == prefix || text.hasPrefix(prefix + " ") else { return nil }
        guard let marker = text.range(of: "; next in ", options: .backwards), text.hasSuffix(" s"),
              case let end = text.index(text.endIndex, offsetBy: -2), marker.upperBound <= end else { return Line(nextIn: nil) }
        let number = text[marker.upperBound..<end]
        // A number a person or another program wrote: only a finite, non-negative one is a time.
        guard let seconds = Double(number), seconds.isFinite, seconds >= 0 else { return Line(nextIn: nil) }
        return Line(nextIn: seconds)
    }
}

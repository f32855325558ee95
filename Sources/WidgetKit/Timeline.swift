import AppGroupKit
import Foundation
import LockstepSystem

/// The data one rendering of a widget shows, at a date (rule `widget.provider`: views are stateless, all data
/// comes from the entry). As Apple declares it: an entry need not be `Sendable`.
public protocol TimelineEntry {
    var date: Date { get }
    /// How relevant the entry is, for Smart Stacks; nil by default.
    var relevance: TimelineEntryRelevance? { get }
}

extension TimelineEntry {
    public var relevance: TimelineEntryRelevance? { nil }
}

/// A Smart Stack hint: a score relative to the widget's other entries, for a duration.
public struct TimelineEntryRelevance: Sendable, Equatable {
    public let score: Float
    public let duration: TimeInterval

    public init(score: Float, duration: TimeInterval = 0) {
        self.score = score
        self.duration = duration
    }
}

/// When WidgetKit may ask for the next timeline: a lower bound, never a promise (rule `widget.policy`).
public enum TimelineReloadPolicy: Sendable, Equatable, CustomStringConvertible {
    /// After the last entry's date passes.
    case atEnd
    /// Not before `date`.
    case after(Date)
    /// Only when the app asks (`WidgetCenter.reloadTimelines(ofKind:)`).
    case never

    public var description: String {
        switch self {
        case .atEnd: return ".atEnd"
        case .after(let date): return ".after(\(SimulatedTime.format(date)))"
        case .never: return ".never"
        }
    }
}

/// Entries for now and future dates, plus the policy for the next request.
public struct Timeline<Entry: TimelineEntry> {
    public let entries: [Entry]
    public let policy: TimelineReloadPolicy

    public init(entries: [Entry], policy: TimelineReloadPolicy) {
        self.entries = entries.sorted { $0.date < $1.date }
        self.policy = policy
    }

    /// The entry to show at `now`: the last one whose date has passed; an entry is never shown before its date.
    public func entry(at now: Date) -> Entry? {
        entries.last { $0.date <= now }
    }

    /// The earliest date the system may request a new timeline, or nil for `.never`.
    public var nextReloadDate: Date? {
        switch policy {
        case .atEnd: return entries.last?.date
        case .after(let date): return date
        case .never: return nil
        }
    }
}

extension Timeline: Sendable where Entry: Sendable {}

/// What the system tells a provider about the widget it is serving.
public struct TimelineProviderContext: Sendable {
    public let family: WidgetFamily
    /// True when showing the widget gallery: a snapshot should be fast and may use sample data.
    public let isPreview: Bool
    /// The widget's size in points on the device (see `WidgetFamily.displaySize(on:)`).
    public let displaySize: CGSize

    public init(family: WidgetFamily, isPreview: Bool = false, device: ReferenceDevice = .iPhone) {
        self.family = family
        self.isPreview = isPreview
        displaySize = family.displaySize(on: device)
    }
}

/// A widget's source of entries (rule `widget.provider`), with Apple's three requirements as Apple declares
/// them, so that a provider written for iOS compiles unchanged.
public protocol TimelineProvider {
    associatedtype Entry: TimelineEntry
    typealias Context = TimelineProviderContext

    /// A placeholder, synchronously and without fetching data: rendered redacted while the real entry loads.
    func placeholder(in context: Context) -> Entry
    /// One entry, fast: the widget gallery and one-shot renders use it.
    func getSnapshot(in context: Context, completion: @escaping (Entry) -> ())
    /// Entries for now and the future, with the policy for the next request.
    func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> ())
}

/// The simulated clock as dates (LockstepSystem.SimulatedClock: shared by every process under a groups root).
public enum SimulatedTime {
    /// Now on the clock of `groupsRoot`.
    public static func now(groupsRoot: String) -> Date {
        Date(timeIntervalSince1970: SimulatedClock(groupsRoot: groupsRoot).now())
    }

    /// `2026-11-22 14:05Z`: short and unambiguous for logs.
    /// (`gmtime_r`, not `DateFormatter`: a log line must not load ICU's calendars, ~1 ms of a widget's start.)
    public static func format(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min))Z"
    }
}

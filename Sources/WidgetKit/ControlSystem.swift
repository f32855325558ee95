import AppGroupKit
import AppIntents
import Foundation
import LockstepSystem
import SwiftUI

/// Asks the system to show controls' current values again (Apple's `ControlCenter`, iOS 18), from any process of
/// the app group: the widget extension asks the control's value provider again and redraws it.
///
/// Requests travel as `WidgetCenter`'s do (counter files in `<group container>/.lockstep/widgetkit/reload/`,
/// `_control.<kind>` and `_controls`, and the Darwin notification that wakes the widget process). Apple documents
/// no daily budget for controls, and none is applied.
public struct ControlCenter: Sendable {
    let center: WidgetCenter

    /// A center for the App Group container at `groupContainer`, asking as `requester` (Lockstep's own code and tests).
    public init(groupContainer: String, requester: String, notifications: DarwinNotificationCenter? = nil) {
        center = WidgetCenter(groupContainer: groupContainer, requester: requester, notifications: notifications)
    }

    private init(center: WidgetCenter) { self.center = center }

    /// Apple's `ControlCenter.shared`: this process's, through the App Group `WidgetCenter.shared` uses.
    public static var shared: ControlCenter { ControlCenter(center: .shared) }

    /// The request file that stands for every control, and the one for a kind.
    static let allControls = "_controls"
    static func requestName(kind: String) -> String { "_control.\(kind)" }

    /// The controls of `kind` ask their value providers again.
    public func reloadControls(ofKind kind: String) {
        center.deliver { try center.request(Self.requestName(kind: kind)) }
    }

    /// Every control of the app asks its value provider again.
    public func reloadAllControls() {
        center.deliver { try center.request(Self.allControls) }
    }

    /// `reloadControls(ofKind:)` that says why it failed, for Lockstep's own code and tests.
    /// - Throws: the stale-build error (rule `runtime.stale`) or a `WidgetKitError.storage`.
    public func requestReload(ofKind kind: String) throws {
        try center.requestReload(ofKind: Self.requestName(kind: kind))
    }
}

/// The system side of one control, in the widget extension's process: asks its value provider for the value,
/// draws it as Control Center does, runs its intent when a person taps it, and follows `ControlCenter`'s reloads.
///
/// Files (`<group container>/.lockstep/widgetkit/<kind>/`): `control.txt` (the texts the medium control shows, one
/// per line, replaced atomically), `log` (a line per value shown); while serving, `renders/<kind>/<size>.svg`.
@MainActor
public final class ControlSystem {
    public let control: WidgetDescriptor
    let source: ControlSource
    /// Where each rendering's picture goes, or nil: only a serving process draws.
    public var renders: String?
    /// The device's Darwin center, to wake the app an `openAppWhenRun` intent is handed to.
    public var notifications: DarwinNotificationCenter?
    public let groupsRoot: String
    public let groupContainer: String
    public let hostBundleIdentifier: String
    private let output: @Sendable (String) -> Void
    /// What the control shows: the last value its provider gave (nil before the first).
    private var content: _ControlTemplateContent?
    private var seenRequests: [String: Int] = [:]
    /// Whether `configure` has set the instance (a control that prompts for its configuration needs it).
    private var configured = false
    /// Whether `start()` has shown the first value.
    private var started = false

    public init(control: WidgetDescriptor, groupsRoot: String, groupContainer: String, hostBundleIdentifier: String,
                output: @escaping @Sendable (String) -> Void) {
        self.control = control
        // The host makes a ControlSystem of controls only.
        source = control.control!
        self.groupsRoot = groupsRoot
        self.groupContainer = groupContainer
        self.hostBundleIdentifier = hostBundleIdentifier
        self.output = output
    }

    /// The file holding the current rendering's texts.
    nonisolated public static func renderPath(groupContainer: String, kind: String) -> String {
        GroupsLayout.widgetRendering(kind, family: "control", container: groupContainer)
    }

    private var requestNames: [String] { [ControlCenter.requestName(kind: control.kind), ControlCenter.allControls] }

    /// Asks for the first value and shows it; requests made before this process started are satisfied by it.
    public func start() throws {
        try AtomicFile.createDirectories(GroupsLayout.widget(control.kind, container: groupContainer))
        for name in requestNames {
            seenRequests[name] = WidgetCenter.readRequest(at: WidgetCenter.requestPath(groupContainer: groupContainer, name: name))?.count ?? 0
        }
        started = true
        try reload("first value")
    }

    /// Asks for the value without showing it (a one-shot `render`).
    /// - Throws: the value provider's error.
    public func load() throws {
        content = try source.current()
    }

    /// One look at `ControlCenter`'s requests.
    /// - Returns: whether it fetched the value again (work the serving process says returned, rule `lock.dead10cc`).
    @discardableResult
    public func tick() throws -> Bool {
        for name in requestNames {
            let path = WidgetCenter.requestPath(groupContainer: groupContainer, name: name)
            if let request = WidgetCenter.readRequest(at: path), request.count != seenRequests[name] {
                seenRequests[name] = request.count
                try reload("app request from \(request.requester)")
                return true
            }
        }
        return false
    }

    /// Asks the value provider again and shows the value. A provider that throws leaves the last value shown (the
    /// preview value before the first), said on stderr and in the log.
    func reload(_ reason: String) throws {
        do {
            content = try source.current()
        } catch {
            if ProcessStop.isFatal(error) { throw error }
            let line = "control \(control.kind): the value provider failed (\(reason)): \(error); it shows its last value"
            WidgetSystem.log(line, kind: control.kind, groupsRoot: groupsRoot, groupContainer: groupContainer)
            Standard.error("warning: " + line)
        }
        try show(reason: "reloaded control \(control.kind) (\(reason))")
    }

    /// Writes the texts (and, while serving, every size's picture) and reports the line.
    private func show(reason: String) throws {
        let texts = render(.medium).texts
        var files = [(path: Self.renderPath(groupContainer: groupContainer, kind: control.kind), text: texts.map { $0 + "\n" }.joined())]
        if let renders {
            try AtomicFile.createDirectories("\(renders)/\(control.kind)")
            for size in ControlCenterSize.allCases {
                files.append(("\(renders)/\(control.kind)/\(size.rawValue).svg", render(size).svg(title: "\(control.kind) \(size.rawValue)")))
            }
        }
        try SharedWriteGate.check()
        try WidgetSystem.writeConcurrently(files)
        let line = "\(reason) → \(texts.joined(separator: " · "))"
        WidgetSystem.log(line, kind: control.kind, groupsRoot: groupsRoot, groupContainer: groupContainer)
        output(line)
    }

    /// The control drawn at `size`: its current value, or its preview value before the first.
    package func render(_ size: ControlCenterSize) -> RenderedView {
        var environment = EnvironmentValues()
        environment.colorScheme = .dark
        var request = RenderRequest(size: size.size, environment: environment)
        // Control Center dims whatever is behind it: a dark stand-in keeps the white symbols and texts visible.
        request.backdrop = Color(red: 0.11, green: 0.11, blue: 0.12)
        return SwiftUI.render(ControlPicture(content: content ?? source.preview(), size: size), request)
    }

    /// A person taps the control: a toggle's `SetValueIntent` gets the opposite of the value shown, a button's
    /// intent runs as it is, in this process (an `openAppWhenRun` intent in the app); then the provider is asked again.
    /// - Returns: the intent's result, and the line that says what happened.
    public func tap() throws -> PerformedResult {
        try ensureConfigured()
        let shown = try content ?? source.current()
        guard !shown.isDisabled else {
            return PerformedResult(dialog: "\(control.kind) is disabled: the tap runs nothing.", value: nil)
        }
        let intent = shown.isOn.flatMap { isOn in shown.settingValue?(!isOn) } ?? shown.intent
        let result = try WidgetSystem.perform(intent, groupContainer: groupContainer, hostBundleIdentifier: hostBundleIdentifier,
                                              notifications: notifications)
        let change = shown.isOn.map { " with value \(!$0)" } ?? ""
        try reload("\(shown.intentTypeName) performed\(change) in the widget extension")
        return result
    }

    /// A control that prompts for its configuration runs nothing until `configure` has set it.
    /// - Throws: `WidgetKitError.controlNotConfigured`.
    public func ensureConfigured() throws {
        if control.promptsForConfiguration && !configured {
            throw WidgetKitError(.controlNotConfigured, subject: control.kind, detail: "")
        }
    }

    /// `configure --PARAMETER VALUE…` for an `AppIntentControlConfiguration`: the instance's new settings, then (once
    /// started) its value again. Refused settings change nothing and write nothing.
    public func configure(_ settings: [String: String]) throws {
        guard let configure = source.configure else {
            throw WidgetKitError(.usage, subject: "configure", detail: "\(control.kind) is a StaticControlConfiguration: it has no settings")
        }
        try configure(settings)
        configured = true
        if started { try reload("configuration changed") }
    }

    /// What `status` says of the control.
    public func status() -> String {
        let value = content.map { $0.isOn.map { $0 ? "on" : "off" } ?? "button" } ?? "no value yet"
        let shown = content ?? source.preview()
        return "\(control.kind): control (\(value)), intent \(shown.intentTypeName)" + (shown.actionHint.map { ", action hint '\($0)'" } ?? "")
    }
}

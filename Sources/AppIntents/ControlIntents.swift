import Foundation

// The intents iOS 18's controls use (Apple's AppIntents declares them beside `AppIntent`). WidgetKit's control
// widgets run them: a `ControlWidgetToggle` hands its `SetValueIntent` the new value before `perform()`, in the
// widget extension's process.

/// An intent of a kind the system knows how to run itself (Apple's `SystemIntent`): the base of `SetValueIntent`.
public protocol SystemIntent: AppIntent {}

/// An intent that sets a value (Apple's `SetValueIntent`, iOS 18): a control toggle sets `value` to the state the
/// person chose (`true` when they turn it on), then calls `perform()`.
public protocol SetValueIntent: SystemIntent {
    associatedtype ValueType
    var value: ValueType { get set }
}

/// The intent that configures a control instance (Apple's `ControlConfigurationIntent`, iOS 18): its parameters
/// are the control's settings (`AppIntentControlConfiguration`); it performs nothing of its own.
public protocol ControlConfigurationIntent: AppIntent {}

extension ControlConfigurationIntent {
    public func perform() async throws -> IntentResultContainer<Never, Never> { .result() }
}

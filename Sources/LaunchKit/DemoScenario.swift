/// The built-in `demo` scenario that `lockstep up` runs with no arguments: written by the reference-app
/// (Habits) issue in the scenario format LaunchKit documents.
public enum DemoScenario {
    public static let text = """
    # Placeholder until the Habits reference app lands.
    """
}

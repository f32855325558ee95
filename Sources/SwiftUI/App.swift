import Foundation
import LockstepRuntime

/// A SwiftUI app, run headless as a simulated process (<doc:RunningYourProject> "The app"): `@main struct X: App`
/// builds unchanged; its `init()` runs, its scenes' root views are resolved once at the device's screen size and
/// their `onAppear` and `task` work runs, so code that seeds the shared store does; then it serves as the app's
/// process (`AppProcess`): `reload [KIND]` and `status` on stdin, as the stand-in app does.
public protocol App {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    @MainActor @preconcurrency init()
}

/// What an app shows: here, the root views a headless app resolves.
public protocol Scene {
    /// The root views, resolved once when the app starts.
    @MainActor func _appear()
}

/// A window of the app's content.
public struct WindowGroup<Content: View>: Scene {
    let content: () -> Content

    public init(@ViewBuilder content: @escaping () -> Content) { self.content = content }
    public init(_ title: String, @ViewBuilder content: @escaping () -> Content) { self.content = content }
    public init(_ title: String, id: String, @ViewBuilder content: @escaping () -> Content) { self.content = content }
    public init(id: String, @ViewBuilder content: @escaping () -> Content) { self.content = content }

    /// Lays the content out at an iPhone 15's screen (393 × 852 pt) and runs what appeared.
    @MainActor public func _appear() {
        let context = ResolveContext(environment: EnvironmentValues(), found: Findings())
        _ = resolveOne(content(), context)
        for action in context.found.appearing { action() }
    }
}

/// Several scenes.
public struct _TupleScene: Scene {
    let scenes: [any Scene]
    @MainActor public func _appear() { for scene in scenes { scene._appear() } }
}

@resultBuilder
public enum SceneBuilder {
    public static func buildExpression<S: Scene>(_ scene: S) -> S { scene }
    public static func buildBlock<S: Scene>(_ scene: S) -> S { scene }
    public static func buildBlock(_ scenes: any Scene...) -> _TupleScene { _TupleScene(scenes: scenes) }
    public static func buildOptional(_ scene: (any Scene)?) -> _TupleScene { _TupleScene(scenes: scene.map { [$0] } ?? []) }
    public static func buildEither(first: any Scene) -> _TupleScene { _TupleScene(scenes: [first]) }
    public static func buildEither(second: any Scene) -> _TupleScene { _TupleScene(scenes: [second]) }
}

extension App {
    /// The app's entry point: starts as the manifest's app (or watch app), runs the app, then serves.
    @MainActor public static func main() {
        // `onStart` runs on the main thread, before the process serves.
        AppProcess.main(role: .host, onStart: {
            MainActor.assumeIsolated { Self().body._appear() }
        }, handle: { words in
            switch words.first {
            case "status": return "\(String(describing: Self.self)) is running"
            default: return "the app knows 'status'"
            }
        })
    }
}

nonisolated extension View {
    /// Runs `action` when the view appears: in a headless app, once, after its window's first layout.
    public func onAppear(perform action: (() -> Void)? = nil) -> some View {
        // Views are resolved on the main actor, where the action then runs: as Apple's, it is no Sendable closure.
        nonisolated(unsafe) let action = action
        return _FindingModifier(content: self) { context in
            if action != nil { context.found.appearing.append { action?() } }
        }
    }

    /// Disappearing never happens in a headless app's single layout.
    public func onDisappear(perform action: (() -> Void)? = nil) -> some View { self }

    /// Starts `action` when the view appears; the app's process keeps serving while it runs.
    public func task(priority: TaskPriority = .userInitiated, _ action: @escaping @Sendable () async -> Void) -> some View {
        _FindingModifier(content: self) { context in
            context.found.appearing.append { Task.detached(priority: priority, operation: action) }
        }
    }
}

import Foundation
@_exported import LockstepTesting
import LockstepSystem

/// Helpers shared by the test targets: temporary groups roots, the built executables, and bounded waits.
public enum TestSupport {
    /// The directory holding the built executables (`lockstep`, `lockstep-widget` …): the one the running
    /// test bundle sits in, whatever `--scratch-path` was used.
    public static var binDirectory: URL { Child.binDirectory }

    /// The path of a built executable.
    public static func executable(_ name: String) -> String {
        binDirectory.appendingPathComponent(name).path
    }

    /// A fresh, empty directory for one test (a groups root, fixtures), removed by `cleanUp`.
    public static func temporaryDirectory(_ label: String = "lockstep") -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(getpid())-\(UUID().uuidString.prefix(8))")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    public static func cleanUp(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }
}

/// `lockstep check` run on a built app, `X.app` in a fresh folder, whose only file is the Info.plist `bytes`; the
/// folder is removed before this returns, and the app's path is given for the messages that name it.
public func checkBuiltApp(infoPlist bytes: Data) throws -> (result: ProcessResult, app: String) {
    let dir = TestSupport.temporaryDirectory("built-app")
    defer { TestSupport.cleanUp(dir) }
    let app = dir.appendingPathComponent("X.app")
    try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
    try bytes.write(to: app.appendingPathComponent("Info.plist"))
    return (try run("lockstep", ["check", app.path]), app.path)
}

/// Runs an executable to completion (bounded by `timeout`) and returns its status and output.
public func run(_ executable: String, _ arguments: [String] = [], environment: [String: String] = [:], stdin: Data? = nil, timeout: Double = 60,
                currentDirectory: String? = nil) throws -> ProcessResult {
    try Child(executable, arguments, environment: environment, stdin: stdin, currentDirectory: currentDirectory).wait(timeout: timeout)
}

extension String {
    /// The text with only the first occurrence of `target` replaced (the embedded manifest's widget, not its
    /// complication, which shares the widget's extension point).
    public func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}

import LockstepSystem

/// Where a bundle's `executable` is found: a path (relative to the current directory), or a name found next to
/// the running `lockstep` (the directory of `/proc/self/exe`) or on PATH (<doc:Design> "The manifest").
public enum ExecutableLocator {
    /// The executable's absolute or relative path.
    /// - Throws: `LaunchError.executableNotFound` naming the bundle and where it looked.
    public static func locate(_ executable: String, bundle: String) throws(LaunchError) -> String {
        if executable.contains("/") {
            guard FileSystem.isExecutable(executable) else {
                throw LaunchError(.executableNotFound, subject: bundle, detail: "its executable '\(executable)' \(reason(executable))")
            }
            return executable
        }
        func runnable(_ directory: Substring) -> String? {
            guard !directory.isEmpty else { return nil }
            let candidate = "\(directory)/\(executable)"
            return FileSystem.isExecutableFile(candidate) ? candidate : nil
        }
        // Next to lockstep first (the usual case: `up` looks up every bundle before it starts), then PATH.
        if let own = ownDirectory, let found = runnable(own[...]) { return found }
        if let path = ProcessEnvironment.value("PATH") {
            for directory in path.split(separator: ":") {
                if let found = runnable(directory) { return found }
            }
        }
        throw LaunchError(.executableNotFound, subject: bundle,
                          detail: "its executable '\(executable)' is neither next to lockstep (\(ownDirectory ?? "?")) nor on PATH")
    }

    /// The running executable's path (`/proc/self/exe`).
    public static var running: String { Program.executablePath }

    /// The directory of the running executable (read once: it does not move).
    static let ownDirectory: String? = {
        let path = running
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }()

    private static func reason(_ path: String) -> String {
        FileSystem.exists(path) ? "is not executable" : "does not exist"
    }
}

extension SpawnedProcess {
    /// Starts a bundle's process (see `init`), naming the bundle when it cannot.
    /// - Throws: `LaunchError.spawnFailed` naming `name`.
    static func start(path: String, name: String, arguments: [String], environment: [String: String], ownGroup: Bool,
                      pipes: Bool) throws(LaunchError) -> SpawnedProcess {
        do {
            return try SpawnedProcess(path: path, arguments: arguments, environment: environment, ownGroup: ownGroup, pipes: pipes)
        } catch {
            throw LaunchError(.spawnFailed, subject: name, detail: error.detail)
        }
    }
}

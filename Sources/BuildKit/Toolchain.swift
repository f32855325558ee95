import Foundation
import LockstepSystem
import XcodeKit

/// The Swift toolchain `lockstep build` compiles with, and Lockstep's own package, which every generated package
/// depends on by path.
enum Toolchain {
    /// `swift`: `$SWIFT`, then PATH, then the toolchain at /opt/swift.
    static var swift: String {
        if let explicit = ProcessEnvironment.value("SWIFT"), !explicit.isEmpty { return explicit }
        for directory in (ProcessEnvironment.value("PATH") ?? "").split(separator: ":") where FileSystem.isExecutableFile("\(directory)/swift") {
            return "\(directory)/swift"
        }
        return "/opt/swift/usr/bin/swift"
    }

    /// Lockstep's package: `$LOCKSTEP_PACKAGE`, or the checkout this `lockstep` was built from.
    /// - Throws: `BuildError.toolchain` when neither holds Package.swift (an installed `lockstep` whose checkout is gone).
    static func lockstepPackage() throws -> String {
        if let explicit = ProcessEnvironment.value("LOCKSTEP_PACKAGE"), !explicit.isEmpty {
            guard FileSystem.exists(explicit + "/Package.swift") else {
                throw BuildError(.toolchain, subject: explicit, detail: "LOCKSTEP_PACKAGE names no folder holding Lockstep's Package.swift")
            }
            return PathText.absolute(explicit)
        }
        // This file is Sources/BuildKit/Toolchain.swift of the checkout.
        let checkout = PathText.parent(of: PathText.parent(of: PathText.parent(of: #filePath)))
        guard FileSystem.exists(checkout + "/Package.swift") else {
            throw BuildError(.toolchain, subject: checkout, detail: "the Lockstep checkout this lockstep was built from is gone; set LOCKSTEP_PACKAGE to a Lockstep checkout")
        }
        return checkout
    }

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `swift ARGUMENTS`, its output kept in files under the system's temporary folder (a build prints
    /// megabytes; a pipe read after the exit would block it).
    /// - Parameter log: where to keep the combined output instead (a build's log); nil for temporary files.
    static func run(_ arguments: [String], log: String? = nil) throws -> Output {
        let scratch = NSTemporaryDirectory() + "lockstep-build-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
        let out = log ?? scratch + ".out"
        let err = log == nil ? scratch + ".err" : out
        defer {
            if log == nil {
                _ = FileSystem.remove(out)
                _ = FileSystem.remove(err)
            }
        }
        var environment = ProcessInfo.processInfo.environment
        environment["LOCKSTEP_SWIFT_OUT"] = out
        environment["LOCKSTEP_SWIFT_ERR"] = err
        let script = log == nil ? #"exec "$@" >"$LOCKSTEP_SWIFT_OUT" 2>"$LOCKSTEP_SWIFT_ERR""# : #"exec "$@" >"$LOCKSTEP_SWIFT_OUT" 2>&1"#
        let process: SpawnedProcess
        do {
            process = try SpawnedProcess(path: "/bin/sh", arguments: ["-c", script, "sh", swift] + arguments,
                                         environment: environment, ownGroup: false, pipes: false)
        } catch {
            throw BuildError(.toolchain, subject: swift, detail: error.detail)
        }
        let termination = process.wait()
        let status = termination.shellStatus
        if status == 127 { throw BuildError(.toolchain, subject: swift, detail: "there is no such program; put the Swift toolchain on PATH or set SWIFT") }
        let stdout = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        let stderr = log == nil ? ((try? String(contentsOfFile: err, encoding: .utf8)) ?? "") : stdout
        return Output(status: status, stdout: stdout, stderr: stderr)
    }

}

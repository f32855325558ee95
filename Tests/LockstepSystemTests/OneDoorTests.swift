import Foundation
import Testing

/// LockstepSystem is the only door to the operating system: no other library calls the C library's process, lock
/// and file-status functions itself, nor imports Glibc (Foundation re-exports it, so only reading the sources can tell).
/// The executables (`Sources/lockstep*`) are not libraries: the bench's baselines call `flock` and `posix_spawn` on
/// purpose, to measure what Lockstep is compared with.
@Suite struct OneDoorTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardized

    /// The calls only LockstepSystem makes.
    static let calls = ["fstat", "stat", "lstat", "pread", "kill", "flock", "waitpid", "posix_spawn", "posix_spawnp"]

    static let pattern = try! NSRegularExpression(
        pattern: "(?<![A-Za-z0-9_.])(\(calls.joined(separator: "|")))\\s*\\(|\\b(Glibc)\\.|import\\s+(Glibc)")

    /// The raw calls (or Glibc uses) on one line of Swift: its code only, for a comment may name a call; a method of
    /// Lockstep's own that shares a name (`func kill(_ bundle:…)`, `process.kill(…)`) is no call.
    static func rawCalls(onLine fullLine: String) -> [String] {
        let line = fullLine.components(separatedBy: "//")[0]
        return pattern.matches(in: line, range: NSRange(line.startIndex..., in: line)).compactMap { match in
            guard let whole = Range(match.range, in: line), !line[..<whole.lowerBound].hasSuffix("func ") else { return nil }
            let named = (1..<match.numberOfRanges).lazy.compactMap { Range(match.range(at: $0), in: line) }.first
            return named.map { String(line[$0]) }
        }
    }

    /// Each raw call or Glibc use in a library outside LockstepSystem, as `Module/File.swift:LINE: call`.
    static func rawCalls() throws -> [String] {
        var found: [String] = []
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
            .filter { !$0.hasPrefix("lockstep") && $0 != "LockstepSystem" }
        #expect(modules.contains("AppGroupKit") && modules.contains("LaunchKit"), "the sources are not where the test looks: \(sources.path)")
        for module in modules {
            let folder = sources.appendingPathComponent(module)
            guard let files = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    for call in rawCalls(onLine: String(line)) {
                        found.append("\(module)/\(file):\(index + 1): \(call)")
                    }
                }
            }
        }
        return found
    }

    @Test func noLibraryButLockstepSystemCallsTheOperatingSystem() throws {
        let found = try Self.rawCalls()
        #expect(found.isEmpty, "route these through LockstepSystem: \(found.joined(separator: "; "))")
    }

    /// The test can fail: a raw call is found; Lockstep's own methods and comments are not.
    @Test func aRawCallIsFound() {
        #expect(Self.rawCalls(onLine: "        _ = kill(pid, SIGKILL)") == ["kill"])
        #expect(Self.rawCalls(onLine: "guard fstat(fd, &info) == 0, flock(fd, LOCK_EX) == 0") == ["fstat", "flock"])
        #expect(Self.rawCalls(onLine: "while waitpid(pid, &status, 0) == -1 {}") == ["waitpid"])
        #expect(Self.rawCalls(onLine: "_ = Glibc.exit(1)") == ["Glibc"])
        #expect(Self.rawCalls(onLine: "import Glibc") == ["Glibc"])
        #expect(Self.rawCalls(onLine: "    func kill(_ bundle: SupervisedBundle, reason: String) {").isEmpty)
        #expect(Self.rawCalls(onLine: "bundle.process.kill(SIGKILL)").isEmpty)
        #expect(Self.rawCalls(onLine: "    // flock locks and POSIX locks alike").isEmpty)
    }
}

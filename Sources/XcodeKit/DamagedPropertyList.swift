import BundleKit
import LockstepSystem

/// A file that starts as a binary property list (`bplist`) and cannot be read as one: a damaged Info.plist,
/// entitlements file or privacy manifest. `bplist` means binary only, so its keys are not "missing": `check` refuses
/// the input as unreadable, exit 2, naming the file, as every other reader of property lists does (issue 42).
package enum DamagedPropertyList {
    /// Why the file at `path` is a damaged binary property list, or nil when it is not one (missing, readable, or
    /// not binary: another reader's sentence then says what it is).
    package static func problem(at path: String) -> String? {
        guard let bytes = InputFile.readIfPresent(path), bytes.starts(with: Array("bplist".utf8)) else { return nil }
        if BinaryPropertyList.containsSet(bytes) { return "it holds a set, which is not a property-list type" }
        return BinaryPropertyList.problem(bytes)
    }

    /// The refusal of a project whose target reads a damaged property list: the first such problem of `problems`.
    package static func refusal(_ problems: [(file: String, message: String, severity: ProblemWeight)]) -> BundleError? {
        problems.first { $0.severity == .damaged }.map { BundleError(.notAPropertyList, path: $0.file, detail: $0.message) }
    }
}

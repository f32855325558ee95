import BundleKit
import Foundation
import LockstepSystem
import XcodeGenKit


/// What `lockstep bump` sets, on the app and every embedded bundle together (rule `version.build-mismatch`:
/// the versions only ever move as one).
public enum VersionChange: Equatable, Sendable {
    /// Set CFBundleVersion to this value.
    case build(String)
    /// Increment the last numeric component of the app's CFBundleVersion (`41` → `42`, `1.2.9` → `1.2.10`).
    case nextBuild
    /// Set CFBundleShortVersionString to this value.
    case version(String)
}

/// Applies a `VersionChange` to a manifest (editing the JSON text in place) or an Xcode project
/// (through `XcodeProjectInput.bump`).
public enum Bump {
    /// Changes the file(s) at `path` and returns the files written. Nothing is written when it throws.
    /// - Throws: `BundleError` (`.invalidBump`, or the reading errors) naming the file.
    public static func apply(_ change: VersionChange, to path: String) throws -> [String] {
        if let project = XcodeProjectInput.projectPath(for: path) {
            // The Xcode reader resolves "next" itself: it knows which setting the app's CFBundleVersion reads.
            switch change {
            case .build(let value): return try XcodeProjectInput.bump(project, build: value, version: nil)
            case .nextBuild: return try XcodeProjectInput.bump(project, build: "next", version: nil)
            case .version(let value): return try XcodeProjectInput.bump(project, build: nil, version: value)
            }
        }
        if XcodeProjectInput.projectPath(for: path) == nil, let spec = XcodeGenSpec.specPath(for: path) {
            switch change {
            case .build(let value): return try XcodeProjectInput.bump(spec: spec, build: value, version: nil)
            case .nextBuild: return try XcodeProjectInput.bump(spec: spec, build: "next", version: nil)
            case .version(let value): return try XcodeProjectInput.bump(spec: spec, build: nil, version: value)
            }
        }
        try manifest(path, change)
        return [path]
    }

    /// Edits the manifest at `path` in place: only the text of the app's and every embedded bundle's inline
    /// `buildVersion` / `shortVersion` values changes; key order, spacing and every other byte stay as they were.
    static func manifest(_ path: String, _ change: VersionChange) throws {
        let bytes = try InputFile.read(path)
        let manifest = try Manifest.parse(bytes, path: path)
        // Values are replaced byte for byte; a UTF-16 or UTF-32 manifest (which reads fine) would need re-encoding.
        guard try JSONValue.utf8(bytes, path: path) == bytes else {
            throw BundleError(.invalidBump, path: path, detail: "it is not UTF-8, and bump edits a manifest's text in place; save it as UTF-8 first")
        }
        let field: String
        let value: String
        switch change {
        case .build(let build): (field, value) = ("buildVersion", build)
        case .version(let version): (field, value) = ("shortVersion", version)
        case .nextBuild:
            guard let current = manifest.app.buildVersion else {
                throw BundleError(.invalidBump, path: path, detail: "the app has no buildVersion to increment")
            }
            (field, value) = ("buildVersion", try next(current, path: path))
        }
        // The ranges of `field` in `app` and in each element of `embedded`, in file order.
        let spans = try JSONValue.parseWithStringSpans(bytes, path: path).1.filter { keyPath, _ in
            (keyPath.count == 2 && keyPath[0] == "app" && keyPath[1] == field)
                || (keyPath.count == 3 && keyPath[0] == "embedded" && keyPath[2] == field)
        }.map(\.range)
        guard !spans.isEmpty else {
            throw BundleError(.invalidBump, path: path, detail: "no bundle states '\(field)' inline (values read from an Info.plist are not edited)")
        }
        var edited = bytes
        for span in spans.reversed() {
            edited.replaceSubrange(span, with: Array("\"\(value)\"".utf8))
        }
        try requireWritable(path)
        try replace(path, with: edited)
    }

    /// Refuses a file its owner made read-only: the atomic rename would replace it anyway (a rename needs only a
    /// writable folder), silently defeating that protection. Checked for every file before any is written.
    static func requireWritable(_ path: String) throws(BundleError) {
        if !FileSystem.isWritable(path) {
            throw BundleError(.invalidBump, path: path, detail: "the file is read-only; nothing was written")
        }
    }

    /// Replaces the file at `path` with `bytes` (`SafeWrite`): a symlinked file (a project.yml linked from a shared
    /// folder) is written through, its target replaced and the link kept; anything but a regular file is refused.
    static func replace(_ path: String, with bytes: [UInt8]) throws(BundleError) {
        try SafeWrite.write(bytes, to: path, code: .invalidBump, outcome: "nothing was written")
    }

    /// `current` with its last numeric component incremented.
    static func next(_ current: String, path: String) throws -> String {
        var parts = current.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard Rules.numericParts(current) != nil, let last = Int(parts[parts.count - 1]), last < Int.max else {
            throw BundleError(.invalidBump, path: path, detail: "the current build '\(current)' is not a period-separated list of integers, so it has no next")
        }
        parts[parts.count - 1] = String(last + 1)
        return parts.joined(separator: ".")
    }
}


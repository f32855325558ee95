import AppGroupKit
import BundleKit
import Dispatch
import Foundation
import LockstepRuntime
import LockstepSystem

/// `lockstep verify`: the visibility matrix. For every pair of bundles and each channel, one real process
/// writes as the first bundle and another reads as the second (the `lockstep defaults/container/notify --as` verbs),
/// and each cell is compared with what the manifest's entitlements and devices say it should be.
public enum Verify {
    /// A way data crosses (or does not cross) between bundles.
    public enum Channel: String, CaseIterable, Sendable {
        case defaults = "group defaults"
        case files = "group files"
        case notifications = "Darwin notifications"
        case privateContainer = "private container"
    }

    /// One writer → reader observation.
    public struct Cell: Sendable, Equatable {
        public var channel: Channel
        /// The App Group, for the group channels.
        public var group: String?
        public var writer: String
        public var reader: String
        /// What the manifest says: whether the reader should see the writer's data.
        public var expected: Bool
        /// What the two processes showed.
        public var observed: Bool
        /// The rule id that explains `expected`.
        public var rule: String
        /// The explanation in a word or two (`shared`, `fallback`, `watch-separate`, `private`).
        public var reason: String

        public var holds: Bool { expected == observed }
    }

    public struct Report: Sendable {
        public var appName: String
        /// Bundle identifiers with their labels (`widget`), in manifest order.
        public var bundles: [(identifier: String, label: String)]
        public var cells: [Cell]
        /// Sentences for bundles that show or change the app's data but share no channel with it.
        public var unshared: [String] = []

        /// Whether every cell is what the manifest says and every widget and intents extension shares a channel
        /// with the host (otherwise `lockstep verify` exits 1).
        public var ok: Bool { cells.allSatisfy(\.holds) && unshared.isEmpty }
    }

    /// A widget shows the app's data and an intents extension changes it (so do notification services, share
    /// extensions and App Clips): one that shares no App Group with the host
    /// sees none of it on a device — the "widget shows No Notes" bug — however faithfully the manifest says so.
    static func unshared(_ manifest: Manifest, labels: [String]) -> [String] {
        let host = manifest.app
        return zip(manifest.bundles, labels).compactMap { bundle, label in
            // A widget or a notification service reads the app's data; intents, share extensions and App Clips write it
            // (rule `share.extension`, clip.container, notification.service): `BundleRole.Kind.sharesAppData`.
            guard bundle.role.kind.sharesAppData, bundle.bundleIdentifier != host.bundleIdentifier,
                  Set(bundle.appGroups).isDisjoint(with: host.appGroups) else { return nil }
            let id = bundle.bundleIdentifier ?? bundle.name
            guard let group = host.appGroups.first else {
                return "\(label) (\(id)) shares no App Group with \(host.name), which claims none: add one group to both bundles' com.apple.security.application-groups [group.entitlement]."
            }
            return "\(label) (\(id)) shares no App Group with \(host.name), so it can neither see nor change the app's data: add '\(group)' to its com.apple.security.application-groups [group.entitlement]."
        }
    }

    /// Runs the probes. `lockstep` is the executable to spawn for each side (the running `lockstep`).
    /// - Parameter manifestArgument: passed on as `--manifest` so every probe process reads the same manifest.
    public static func run(manifest: Manifest, manifestArgument: String?, groupsRoot: String, lockstep: String) -> Report {
        let targets = LaunchTargets(manifest: manifest, groupsRoot: groupsRoot)
        let bundles = zip(manifest.bundles, targets.labels).compactMap { record, label in
            record.bundleIdentifier.map { (record: record, identifier: $0, label: label) }
        }
        // The groups checked: the host's (what extensions share with it), else every group any bundle claims.
        var groups = manifest.app.appGroups
        if groups.isEmpty { groups = Array(Set(manifest.bundles.flatMap(\.appGroups))).sorted() }
        let nonce = String(UInt64.random(in: 0 ... .max), radix: 16)
        let common = (manifestArgument.map { ["--manifest", $0] } ?? []) + ["--groups", groupsRoot]
        func file(_ writer: String) -> String { "lockstep-verify-\(writer).txt" }
        func notification(_ index: Int) -> String { "lockstep.verify.\(nonce).\(index)" }

        // Writes, one process per bundle and channel.
        var writes: [Probe] = []
        for (index, bundle) in bundles.enumerated() {
            let id = bundle.identifier
            for group in groups {
                writes.append(Probe(["defaults", "--as", id, "write", group, "lockstep.verify.\(id)", nonce]))
                writes.append(Probe(["container", "--as", id, group, "--write", file(id)], stdin: nonce))
            }
            writes.append(Probe(["notify", "--as", id, "post", notification(index)]))
            writes.append(Probe(["container", "--as", id, "app", "--write", file(id)], stdin: nonce))
        }
        run(writes, lockstep: lockstep, common: common)

        // Reads, one process per ordered pair and channel, each with what the manifest says it should see.
        var reads: [(probe: Probe, cell: Cell)] = []
        for (writerIndex, writer) in bundles.enumerated() {
            for reader in bundles where reader.identifier != writer.identifier {
                let sameDevice = writer.record.device == reader.record.device
                func cell(_ channel: Channel, _ group: String?, _ expected: Bool, _ rule: String, _ reason: String) -> Cell {
                    Cell(channel: channel, group: group, writer: writer.identifier, reader: reader.identifier,
                         expected: expected, observed: false, rule: rule, reason: reason)
                }
                for group in groups {
                    let entitled = writer.record.appGroups.contains(group) && reader.record.appGroups.contains(group)
                    // rule `group.entitlement`, group.defaults-fallback, group.watch-separate.
                    let (rule, reason, fileRule, fileReason): (String, String, String, String) =
                        !entitled ? ("group.defaults-fallback", "fallback", "group.entitlement", "not entitled")
                        : !sameDevice ? ("group.watch-separate", "watch-separate", "group.watch-separate", "watch-separate")
                        : ("group.entitlement", "shared", "group.entitlement", "shared")
                    reads.append((Probe(["defaults", "--as", reader.identifier, "read", group, "lockstep.verify.\(writer.identifier)"], expect: nonce),
                                  cell(.defaults, group, entitled && sameDevice, rule, reason)))
                    reads.append((Probe(["container", "--as", reader.identifier, group, "--read", file(writer.identifier)], expect: nonce),
                                  cell(.files, group, entitled && sameDevice, fileRule, fileReason)))
                }
                // rule `darwin.name-only`: system-wide on one device; group.watch-separate: not across devices.
                reads.append((Probe(["notify", "--as", reader.identifier, "wait", notification(writerIndex), "--after", "0", "--timeout", "0.3"]),
                              cell(.notifications, nil, sameDevice, sameDevice ? "darwin.name-only" : "group.watch-separate",
                                   sameDevice ? "device-wide" : "watch-separate")))
                // rule `container.private`.
                reads.append((Probe(["container", "--as", reader.identifier, "app", "--read", file(writer.identifier)], expect: nonce),
                              cell(.privateContainer, nil, false, "container.private", "private")))
            }
        }
        let observed = run(reads.map(\.probe), lockstep: lockstep, common: common)
        var cells = reads.map(\.cell)
        for index in cells.indices { cells[index].observed = observed[index] }

        // Leave the containers as they were: the probe keys, files and notification counters go.
        var cleanups: [Probe] = []
        for bundle in bundles {
            for group in groups {
                cleanups.append(Probe(["defaults", "--as", bundle.identifier, "delete", group, "lockstep.verify.\(bundle.identifier)"]))
            }
        }
        run(cleanups, lockstep: lockstep, common: common)
        for bundle in bundles {
            let layout = GroupsLayout(root: groupsRoot), device = bundle.record.device
            for group in groups { FileSystem.remove("\(layout.groupContainer(group, on: device))/\(file(bundle.identifier))") }
            FileSystem.remove("\(layout.privateContainer(bundle.identifier, on: device))/\(file(bundle.identifier))")
        }
        // Every process that used the notification counters has exited, so their files can go (groups/README.md).
        for device in Device.allCases {
            let directory = GroupsLayout(root: groupsRoot).notifications(on: device)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.hasPrefix("lockstep.verify.\(nonce).") {
                FileSystem.remove("\(directory)/\(name)")
            }
        }
        return Report(appName: manifest.app.name, bundles: bundles.map { ($0.identifier, $0.label) }, cells: cells,
                      unshared: unshared(manifest, labels: targets.labels))
    }

    /// One `lockstep` process: its arguments, its stdin, and (for a read) the text that proves it saw the data.
    struct Probe {
        var arguments: [String]
        var stdin: String?
        var expect: String?

        init(_ arguments: [String], stdin: String? = nil, expect: String? = nil) {
            self.arguments = arguments
            self.stdin = stdin
            self.expect = expect
        }
    }

    /// Runs the probes, a few at a time; returns for each whether it succeeded (exit 0, and printed `expect`).
    @discardableResult
    static func run(_ probes: [Probe], lockstep: String, common: [String]) -> [Bool] {
        let results = ResultBox(count: probes.count)
        let queue = DispatchQueue(label: "lockstep.verify", attributes: .concurrent)
        let slots = DispatchSemaphore(value: 4)
        let group = DispatchGroup()
        for (index, probe) in probes.enumerated() {
            slots.wait()
            queue.async(group: group) {
                defer { slots.signal() }
                results.set(index, runOne(probe, lockstep: lockstep, common: common))
            }
        }
        group.wait()
        return results.values
    }

    private static func runOne(_ probe: Probe, lockstep: String, common: [String]) -> Bool {
        guard let process = try? SpawnedProcess.start(path: lockstep, name: "lockstep", arguments: probe.arguments + common,
                                                environment: ProcessInfo.processInfo.environment, ownGroup: false, pipes: true) else { return false }
        if let stdin = probe.stdin { _ = process.writeStdin(stdin) }
        process.closeStdin()
        // stderr is drained on another thread while stdout is read here: read one after the other, a child that
        // fills the stderr pipe first would block on it while this waits on its stdout.
        let stderrDrained = DispatchSemaphore(value: 0)
        let stderr = process.stderr
        DispatchQueue.global().async {
            _ = try? stderr?.readAll(path: "stderr")
            stderrDrained.signal()
        }
        let output = (try? process.stdout?.readAll(path: "stdout")) ?? []
        stderrDrained.wait()
        process.stdout?.close()
        process.stderr?.close()
        guard process.wait() == .exited(0) else { return false }
        guard let expect = probe.expect else { return true }
        return String(decoding: output, as: UTF8.self).trimming(" \n") == expect
    }

    private final class ResultBox: @unchecked Sendable {  // @unchecked: `values` only under `lock`.
        private let lock = NSLock()
        private var storage: [Bool]
        init(count: Int) { storage = Array(repeating: false, count: count) }
        func set(_ index: Int, _ value: Bool) { lock.lock(); storage[index] = value; lock.unlock() }
        var values: [Bool] { lock.lock(); defer { lock.unlock() }; return storage }
    }
}

extension Verify.Report {
    /// The matrix as text: one table per channel (and group), a row writes and a column reads, each cell with the
    /// word that names its rule, then the legend and any cell that is not what the manifest says.
    public var text: String {
        var lines = ["Visibility matrix for \(appName): a row writes, a column reads (✓ sees it, · does not, ✗ not what the manifest says).", ""]
        let labels = bundles.map(\.label)
        let width = max("writes \\ reads".count, labels.map(\.count).max() ?? 0) + 2
        let cellWidth = 17
        var sections: [(Verify.Channel, String?)] = []
        for cell in cells where !sections.contains(where: { $0.0 == cell.channel && $0.1 == cell.group }) {
            sections.append((cell.channel, cell.group))
        }
        for (channel, group) in sections {
            lines.append(group.map { "\(channel.rawValue) (\($0))" } ?? channel.rawValue)
            let header = "  " + "writes \\ reads".padding(width) + labels.map { $0.padding(cellWidth) }.joined()
            lines.append(String(header.reversed().drop { $0 == " " }.reversed()))
            for writer in bundles {
                var row = "  " + writer.label.padding(width)
                for reader in bundles {
                    guard let cell = cells.first(where: { $0.channel == channel && $0.group == group && $0.writer == writer.identifier && $0.reader == reader.identifier }) else {
                        row += "—".padding(cellWidth)
                        continue
                    }
                    let mark = !cell.holds ? "✗" : cell.observed ? "✓" : "·"
                    row += "\(mark) \(cell.reason)".padding(cellWidth)
                }
                lines.append(String(row.reversed().drop { $0 == " " }.reversed()))
            }
            lines.append("")
        }
        lines.append("shared: both bundles list the group [group.entitlement]; fallback: an unentitled bundle silently gets a private suite [group.defaults-fallback];")
        lines.append("not entitled: no container (exit 77) [group.entitlement]; watch-separate: the watch has its own containers and notifications [group.watch-separate];")
        lines.append("device-wide: Darwin notifications reach every process on the device [darwin.name-only]; private: a bundle's own container [container.private].")
        let wrong = cells.filter { !$0.holds }
        if wrong.isEmpty {
            lines.append("Every cell is what the manifest says.")
        } else {
            for cell in wrong {
                let label = { (id: String) in bundles.first { $0.identifier == id }?.label ?? id }
                lines.append("✗ \(label(cell.reader)) \(cell.observed ? "sees" : "does not see") what \(label(cell.writer)) writes through \(cell.channel.rawValue)\(cell.group.map { " (\($0))" } ?? ""), but the manifest says it \(cell.expected ? "should" : "should not") [\(cell.rule)].")
            }
        }
        for sentence in unshared { lines.append("✗ " + sentence) }
        return lines.joined(separator: "\n")
    }

    /// The matrix as JSON: `{"app", "ok", "cells": [{channel, group, writer, reader, visible, expected, rule, reason}]}`.
    public var json: String {
        let object: [String: Any] = [
            "app": appName,
            "ok": ok,
            "unshared": unshared,
            "bundles": bundles.map { ["bundleIdentifier": $0.identifier, "label": $0.label] },
            "cells": cells.map { cell -> [String: Any] in
                var entry: [String: Any] = [
                    "channel": cell.channel.rawValue, "writer": cell.writer, "reader": cell.reader,
                    "visible": cell.observed, "expected": cell.expected, "rule": cell.rule, "reason": cell.reason,
                ]
                if let group = cell.group { entry["group"] = group }
                return entry
            },
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

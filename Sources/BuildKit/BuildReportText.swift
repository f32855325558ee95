import BundleKit
import LockstepSystem
import XcodeKit

extension ProjectBuild.Report {
    /// The portability report as text: a line per bundle, built or not, with the first missing Apple symbol and
    /// where it is used.
    public var text: String {
        var lines: [String] = []
        for outcome in outcomes {
            let label = "\(outcome.bundle.name) (\(outcome.bundle.role.rawValue), \(outcome.platform.rawValue))"
            if let executable = outcome.executable {
                let (mark, how) = outcome.standInHost ? ("○", "not built; the stand-in app runs in its place") : ("✓", "built")
                lines.append("\(mark) \(label): \(how) → \(executable)\(outcome.standIns.isEmpty ? "" : " (with stand-ins)")")
                if outcome.standInHost, let problem = outcome.problem {
                    lines.append("    its own target: \(outcome.location.map { "\($0): " } ?? "")\(problem)")
                }
            } else {
                var line = "✗ \(label): "
                if let location = outcome.location { line += "\(location): " }
                line += outcome.problem ?? "not built"
                lines.append(line)
                if let symbol = outcome.missingSymbol {
                    let what = outcome.problem?.hasPrefix("no such module") == true ? "module" : "symbol"
                    lines.append("    first missing \(what): \(symbol)")
                }
            }
        }
        lines.append("\(builtCount - outcomes.filter(\.standInHost).count) of \(outcomes.count) targets built (\(plan.configuration)) in \(Int(seconds.rounded())) s; manifest: \(manifest)")
        return lines.joined(separator: "\n")
    }

    /// The same as JSON, one object per bundle.
    public var json: String {
        let rows: [JSONValue] = outcomes.map { outcome in
            var row: [String: JSONValue] = [
                "target": .string(outcome.bundle.name), "role": .string(outcome.bundle.role.rawValue),
                "platform": .string(outcome.platform.rawValue), "built": .bool(outcome.executable != nil && !outcome.standInHost),
                "standInApp": .bool(outcome.standInHost),
                "standIns": .array(outcome.standIns.map(JSONValue.string)),
            ]
            if let executable = outcome.executable { row["executable"] = .string(executable) }
            if let problem = outcome.problem { row["firstError"] = .string(problem) }
            if let location = outcome.location { row["location"] = .string(location) }
            if let symbol = outcome.missingSymbol { row["missingSymbol"] = .string(symbol) }
            if let module = outcome.module { row["module"] = .string(module) }
            return .object(row)
        }
        return JSONValue.object([
            "project": .string(PathText.absolute(plan.project)), "configuration": .string(plan.configuration),
            "manifest": .string(manifest), "targets": .array(rows),
        ]).canonicalText
    }
}

/// The scenario `lockstep up PROJECT` runs when none is given: the app asks every widget to reload, so each draws
/// every kind it declares (and `lockstep gallery` shows them).
public enum ProjectScenario {
    /// Writes it beside the report's manifest. - Returns: its path.
    public static func write(for report: ProjectBuild.Report) throws -> String {
        let standIn = report.outcomes.contains { $0.bundle.role == .host && $0.standInHost }
        let widgets = report.outcomes.contains { $0.executable != nil && ($0.bundle.role == .widget || $0.bundle.role == .complication) }
        var lines = ["# Written by lockstep up for \(report.plan.project); pass --scenario FILE to run your own."]
        if standIn && widgets {
            lines += ["== the app asks every widget to reload, and each draws its kinds [widget.reload]",
                      "send host reload", "wait host asked every widget to reload"]
        } else if !standIn {
            lines += ["== the app runs its own code as a process of its own [process.separate]",
                      "send host status", "wait host is running"]
        }
        let path = PathText.parent(of: report.manifest) + "/scenario.txt"
        do {
            try AtomicFile.write(lines.joined(separator: "\n") + "\n", to: path)
        } catch {
            throw BuildError(.unwritable, subject: path, detail: "\(error)")
        }
        return path
    }
}

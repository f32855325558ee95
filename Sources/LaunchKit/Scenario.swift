import LockstepRuntime

/// A scenario for `lockstep up`: steps run one after another against the launched bundles, each printing what it
/// did and how long it took, ending with a checklist of the rules exercised.
///
/// The text format, one step per line (<doc:Simulating> documents it with an example):
///
///     # a comment
///     == what the next steps show [rule.id, other.rule]
///     run ROLE|BUNDLE-ID ARGS…          one-shot process with the bundle's identity ('quotes' group words)
///     expect-output TEXT                the last run printed TEXT (stdout or stderr)
///     expect-status N                   the last run exited with N
///     wait ROLE [--timeout 10s] TEXT    a running bundle prints a line containing TEXT; reports the latency
///     advance 1d|2h|30m|45s             moves the simulated clock forward
///     send ROLE TEXT                    writes TEXT as one line to the bundle's stdin
///     suspend ROLE / resume ROLE        SIGSTOP / SIGCONT (rule `lock.dead10cc`)
///     reinstall --build N [--version X] reinstalls the app and every bundle at another build
///     expect-exit ROLE N|dead10cc|EXC_RESOURCE [--timeout 10s]   the bundle ends so
///     launch ROLE                       (re)launches a long-running bundle and waits for its ready line
///     install-over-clip                 the full app replaces its App Clip: the clip's own container is not carried
///                                       over (rule `clip.container`); the App Groups stay
///     kill ROLE [--mid-write] [--timeout 10s]   SIGKILL (with --mid-write: while it holds a write lock in a shared
///                                       container), then every shared store of its groups is reopened and reported
///     expect store PATH intact          the store at PATH in the app's first App Group container opens intact
///     expect ROLE sees KEY = VALUE [in SUITE] within DURATION
///                                       the shared defaults suite (default: the bundle's first App Group), read as
///                                       the bundle, holds VALUE by the deadline (polled, never a fixed sleep)
public struct Scenario: Sendable {
    /// What the scenario is called in reports (`demo`, or the file path).
    public var name: String
    public var steps: [Step]

    /// One step, with the section (and so the rule ids) it belongs to.
    public struct Step: Sendable {
        public var line: Int
        /// The step as written.
        public var text: String
        public var action: Action
        /// The heading (`== …`) the step is under, if any.
        public var section: Section?
    }

    /// A `== description [rule ids]` heading: the rules the following steps exercise.
    public struct Section: Sendable, Equatable {
        public var title: String
        public var rules: [String]

        public init(title: String, rules: [String]) {
            self.title = title
            self.rules = rules
        }
    }

    /// How `expect-exit` says the bundle should end.
    public enum ExitExpectation: Sendable, Equatable, CustomStringConvertible {
        case status(Int32)
        /// Terminated for holding a lock while suspended (rule `lock.dead10cc`).
        case dead10cc
        /// Killed above its memory limit (rule `widget.memory`).
        case memoryLimit

        public var description: String {
            switch self {
            case .status(let status): return "status \(status)"
            case .dead10cc: return "0xdead10cc"
            case .memoryLimit: return "EXC_RESOURCE"
            }
        }
    }

    public enum Action: Sendable, Equatable {
        case run(target: String, arguments: [String])
        case expectOutput(String)
        case expectStatus(Int32)
        case wait(target: String, text: String, timeout: Double)
        case advance(seconds: Double)
        case send(target: String, text: String)
        case suspend(target: String)
        case resume(target: String)
        case reinstall(build: String, version: String?)
        case expectExit(target: String, expectation: ExitExpectation, timeout: Double)
        case launch(target: String)
        case installOverClip
        /// `expect ROLE sees KEY = VALUE [in SUITE] within DURATION`; `suite` nil: the bundle's first App Group.
        case expectSees(target: String, suite: String?, key: String, value: String, within: Double)
        /// `kill ROLE [--mid-write] [--timeout 10s]`.
        case killBundle(target: String, midWrite: Bool, timeout: Double)
        /// `expect store PATH intact`.
        case expectStore(path: String)
    }

    /// The default bound of `wait` and `expect-exit`.
    public static let defaultTimeout = 10.0

    /// Parses scenario text.
    /// - Parameter name: the file (or `demo`), for errors.
    /// - Throws: `LaunchError.invalidScenario` naming the line.
    public static func parse(_ text: String, name: String) throws(LaunchError) -> Scenario {
        var steps: [Step] = []
        var section: Section?
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimming(" \t\r")
            let number = index + 1
            func invalid(_ detail: String) -> LaunchError {
                LaunchError(.invalidScenario, subject: name, detail: "line \(number) ('\(line)') \(detail)")
            }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("==") {
                section = try parseSection(String(line.dropFirst(2)), invalid: invalid)
                continue
            }
            let (verb, rest) = splitFirstWord(line)
            let action: Action
            switch verb {
            case "run":
                let words = try words(rest, invalid: invalid)
                guard let target = words.first else { throw invalid("needs a role or bundle id: run ROLE ARGS…") }
                action = .run(target: target, arguments: Array(words.dropFirst()))
            case "expect-output":
                guard !rest.isEmpty else { throw invalid("needs the text to find") }
                action = .expectOutput(rest)
            case "expect-status":
                guard let status = Int32(rest) else { throw invalid("needs an exit status number") }
                action = .expectStatus(status)
            case "wait":
                let (target, afterTarget) = splitFirstWord(rest)
                var (timeout, text) = (defaultTimeout, afterTarget)
                if text.hasPrefix("--timeout") {
                    let (_, afterOption) = splitFirstWord(text)
                    let (value, remainder) = splitFirstWord(afterOption)
                    guard let seconds = duration(value) else { throw invalid("has a --timeout that is not a duration like 5s") }
                    (timeout, text) = (seconds, remainder)
                }
                guard !target.isEmpty, !text.isEmpty else { throw invalid("needs a role and the text to wait for: wait ROLE TEXT") }
                action = .wait(target: target, text: text, timeout: timeout)
            case "advance":
                guard let seconds = duration(rest), seconds > 0 else { throw invalid("needs a duration like 1d, 2h, 30m or 45s") }
                action = .advance(seconds: seconds)
            case "send":
                let (target, text) = splitFirstWord(rest)
                guard !target.isEmpty, !text.isEmpty else { throw invalid("needs a role and a line: send ROLE TEXT") }
                action = .send(target: target, text: text)
            case "suspend", "resume", "launch":
                let words = try words(rest, invalid: invalid)
                guard words.count == 1 else { throw invalid("needs exactly one role or bundle id") }
                action = verb == "suspend" ? .suspend(target: words[0]) : verb == "resume" ? .resume(target: words[0]) : .launch(target: words[0])
            case "reinstall":
                let words = try words(rest, invalid: invalid)
                var build: String?
                var version: String?
                var index = 0
                while index < words.count {
                    guard index + 1 < words.count, ["--build", "--version"].contains(words[index]) else {
                        throw invalid("takes --build N [--version X.Y.Z]")
                    }
                    if words[index] == "--build" { build = words[index + 1] } else { version = words[index + 1] }
                    index += 2
                }
                guard let build else { throw invalid("needs --build N") }
                action = .reinstall(build: build, version: version)
            case "expect-exit":
                var words = try words(rest, invalid: invalid)
                let timeout = try takeTimeout(&words, invalid: invalid)
                guard words.count == 2 else { throw invalid("needs a role and a status: expect-exit ROLE 78|dead10cc|EXC_RESOURCE") }
                let expectation: ExitExpectation
                switch words[1] {
                case "dead10cc", "0xdead10cc": expectation = .dead10cc
                case "EXC_RESOURCE": expectation = .memoryLimit
                default:
                    guard let status = Int32(words[1]) else { throw invalid("expects a number, dead10cc or EXC_RESOURCE") }
                    expectation = .status(status)
                }
                action = .expectExit(target: words[0], expectation: expectation, timeout: timeout)
            case "expect":
                let words = try words(rest, invalid: invalid)
                if words.first == "store" {
                    guard words.count == 3, words[2] == "intact" else { throw invalid("is not of the form expect store PATH intact") }
                    action = .expectStore(path: words[1])
                } else {
                    action = try parseExpect(words, invalid: invalid)
                }
            case "kill":
                var words = try words(rest, invalid: invalid)
                let timeout = try takeTimeout(&words, invalid: invalid)
                let midWrite = words.contains("--mid-write")
                words.removeAll { $0 == "--mid-write" }
                guard words.count == 1, !words[0].hasPrefix("-") else { throw invalid("needs one role or bundle id: kill ROLE [--mid-write] [--timeout 10s]") }
                action = .killBundle(target: words[0], midWrite: midWrite, timeout: timeout)
            case "install-over-clip":
                guard rest.isEmpty else { throw invalid("takes no arguments") }
                action = .installOverClip
            default:
                throw invalid("starts with the unknown step '\(verb)' (known: run, expect-output, expect-status, wait, advance, send, suspend, resume, reinstall, expect-exit, launch, install-over-clip, expect, kill)")
            }
            steps.append(Step(line: number, text: line, action: action, section: section))
        }
        return Scenario(name: name, steps: steps)
    }

    /// Removes `--timeout DURATION` from `words`: its seconds, or the default bound when it is not there.
    private static func takeTimeout(_ words: inout [String], invalid: (String) -> LaunchError) throws(LaunchError) -> Double {
        guard let option = words.firstIndex(of: "--timeout") else { return defaultTimeout }
        guard option + 1 < words.count, let seconds = duration(words[option + 1]) else {
            throw invalid("has a --timeout that is not a duration like 5s")
        }
        words.removeSubrange(option...(option + 1))
        return seconds
    }

    /// `ROLE sees KEY = VALUE [in SUITE] within DURATION`, as words (VALUE may be several, or quoted).
    private static func parseExpect(_ words: [String], invalid: (String) -> LaunchError) throws(LaunchError) -> Action {
        let form = "expect ROLE sees KEY = VALUE [in SUITE] within DURATION"
        guard words.count >= 7, words[1] == "sees", words[3] == "=", words[words.count - 2] == "within" else {
            throw invalid("is not of the form \(form)")
        }
        guard let within = duration(words[words.count - 1]) else { throw invalid("has a 'within' that is not a duration like 500ms or 2s") }
        var valueEnd = words.count - 2
        var suite: String?
        if valueEnd - 2 >= 4, words[valueEnd - 2] == "in" {
            suite = words[valueEnd - 1]
            valueEnd -= 2
        }
        guard valueEnd > 4 else { throw invalid("needs a value after '=': \(form)") }
        return .expectSees(target: words[0], suite: suite, key: words[2], value: words[4..<valueEnd].joined(separator: " "), within: within)
    }

    private static func parseSection(_ text: String, invalid: (String) -> LaunchError) throws(LaunchError) -> Section {
        var title = text.trimming(" \t")
        var rules: [String] = []
        if title.hasSuffix("]"), let open = title.lastIndex(of: "[") {
            rules = title[title.index(after: open)..<title.index(before: title.endIndex)]
                .split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
            title = String(title[..<open]).trimming(" \t")
        }
        guard !title.isEmpty else { throw invalid("is a heading without a description: == what it shows [rule.id]") }
        return Section(title: title, rules: rules)
    }

    /// A duration: `500ms`, `45s`, `30m`, `2h`, `1d`, or plain seconds.
    public static func duration(_ text: String) -> Double? {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86400)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            if let value = Double(text.dropLast(suffix.count)), value >= 0 { return value * scale }
        }
        return Double(text).flatMap { $0 >= 0 ? $0 : nil }
    }

    private static func splitFirstWord(_ text: String) -> (String, String) {
        guard let space = text.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return (text, "") }
        return (String(text[..<space]), text[space...].trimming(" \t"))
    }

    /// Splits on blanks; single or double quotes group words (`--habit "Read a book"`).
    private static func words(_ text: String, invalid: (String) -> LaunchError) throws(LaunchError) -> [String] {
        let split = CommandInput.words(text, quotes: ["\"", "'"], isBlank: { $0 == " " || $0 == "\t" })
        if split.unclosedQuote { throw invalid("has an unclosed quote") }
        return split.words
    }
}

extension StringProtocol {
    func trimming(_ set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}

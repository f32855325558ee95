import AppGroupKit
/// A small parser for one verb's arguments: `--flag`, `--option VALUE`, `--option=VALUE`, positionals,
/// and everything after `--` passed through untouched.
///
/// Unknown options are usage errors (exit 64), never silently ignored.
struct Arguments {
    private(set) var positionals: [String] = []
    private(set) var passthrough: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// - Parameters:
    ///   - options: options that take a value (`--manifest`).
    ///   - flags: options that take none (`--strict`).
    ///   - command: the verb, for error messages.
    init(_ arguments: [String], options: Set<String>, flags: Set<String> = [], command: String) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                passthrough = Array(arguments[index...])
                break
            }
            guard argument.hasPrefix("-"), argument.count > 1, Double(argument) == nil else {
                positionals.append(argument)
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if flags.contains(name) && inlineValue == nil {
                self.flags.insert(name)
            } else if options.contains(name) {
                if let inlineValue {
                    values[name, default: []].append(inlineValue)
                } else if index < arguments.count {
                    values[name, default: []].append(arguments[index])
                    index += 1
                } else {
                    throw UsageError("lockstep \(command): option '\(name)' needs a value; see 'lockstep \(command) --help'.")
                }
            } else {
                throw UsageError("lockstep \(command): unknown option '\(argument)'; see 'lockstep \(command) --help'.")
            }
        }
    }

    /// The positionals, then everything after `--`: for a verb that passes nothing on to a child, `--` only ends
    /// the options, so a value may start with a dash (`defaults … write SUITE KEY -- -1x`).
    var operands: [String] { positionals + passthrough }

    /// The last value given for `option`, if any.
    func value(_ option: String) -> String? { values[option]?.last }

    /// Every value given for a repeatable option.
    func allValues(_ option: String) -> [String] { values[option] ?? [] }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
}

extension Arguments {
    /// The groups root every verb uses: `--groups DIR`, else `$LOCKSTEP_GROUPS`, else `./groups` (<doc:Design> "The command line").
    var groupsRoot: String { GroupsRoot.resolve(explicit: value("--groups")).path }

    /// The options `deviceTiming(command:)` reads.
    static let timingOptions: Set<String> = ["--device-timing", "--seed"]

    /// `--device-timing strict|realistic` and `--seed N` (strict when neither is given).
    /// - Throws: a usage error (64) for an unknown mode, a seed that is not a non-negative integer, or a seed
    ///   without realistic timing (strict mode draws no delay, so a seed there would be silently ignored).
    func deviceTiming(command: String) throws(UsageError) -> DeviceTiming {
        let mode = value("--device-timing")
        let seed = value("--seed")
        switch DeviceTiming.parse(mode: mode, seed: seed) {
        case .failure(let failure):
            throw UsageError("lockstep \(command): \(failure.reason); see 'lockstep \(command) --help'.")
        case .success(let timing):
            if seed != nil && !timing.isRealistic {
                throw UsageError("lockstep \(command): --seed applies to --device-timing realistic only; strict timing draws no delay.")
            }
            return timing
        }
    }
}

import Foundation
import LockstepSystem

/// The line protocol of the long-running simulated processes (the Habits bundles, `WidgetExtension.main`): one command per stdin line, one result line per
/// command on stdout, errors as one sentence on stderr.
public enum CommandInput {
    /// Splits a command line into words; double quotes group words (`add "Drink water" 💧`).
    public static func words(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        var started = false
        for character in line {
            if character == "\"" {
                quoted.toggle()
                started = true
            } else if character.isWhitespace && !quoted {
                if started { words.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if started { words.append(current) }
        return words
    }

    /// Reads stdin until EOF or `quit`, running `execute` on each line and printing its result.
    ///
    /// An error is reported and serving goes on, except a stale build (exit 78), which is thrown: it stops the
    /// process (rule `runtime.stale`).
    public static func serve(_ execute: ([String]) throws -> String) throws {
        while let line = readLine() {
            let words = Self.words(line)
            guard let first = words.first else { continue }
            if first == "quit" || first == "exit" { break }
            do {
                print(try execute(words))
            } catch {
                if ProcessStop.isFatal(error) { throw error }
                Standard.error(error)
            }
        }
    }
}

import Foundation
import LockstepSystem

/// The line protocol of the long-running simulated processes (the Habits bundles, `WidgetExtension.main`): one command per stdin line, one result line per
/// command on stdout, errors as one sentence on stderr.
public enum CommandInput {
    /// Splits a command line into words; double quotes group words (`add "Drink water" 💧`).
    public static func words(_ line: String) -> [String] {
        words(line, quotes: ["\""], isBlank: \.isWhitespace).words
    }

    /// Splits `line` into words at `isBlank` characters. A quote (any of `quotes`) groups what follows, blanks
    /// included, up to the same quote character, and makes a word even when empty (`""`). `unclosedQuote` is for
    /// callers that reject `"a b` (scenarios); the line protocol takes it as `a b`.
    package static func words(_ line: String, quotes: Set<Character>,
                              isBlank: (Character) -> Bool) -> (words: [String], unclosedQuote: Bool) {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if quotes.contains(character) {
                quote = character
                inWord = true
            } else if isBlank(character) {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return (words, quote != nil)
    }

    /// Reads stdin until EOF or `quit`, running `execute` on each line and printing its result.
    ///
    /// An error is reported and serving goes on, except a stale build (exit 78), which is thrown: it stops the
    /// process (rule `runtime.stale`).
    /// - Parameters:
    ///   - workReturned: for an extension, the detail of the work-returned line said after each command, whatever
    ///     its result (`WorkReturned.announce`: under realistic timing only; rule `lock.dead10cc`).
    ///   - split: how a line becomes words (default: `words(_:)`).
    public static func serve(workReturned: (([String]) -> String)? = nil, split: (String) -> [String] = words,
                             _ execute: ([String]) throws -> String) throws {
        while let line = readLine() {
            let words = split(line)
            guard let first = words.first else {
                // An empty line is the launcher waking this suspended extension with no command (a reinstall): it
                // says its work returned again, to be suspended again (rule `lock.dead10cc`).
                if workReturned != nil { WorkReturned.announce("after a wake-up") }
                continue
            }
            if first == "quit" || first == "exit" { break }
            do {
                print(try execute(words))
            } catch {
                if ProcessStop.isFatal(error) { throw error }
                Standard.error(error)
            }
            if let workReturned { WorkReturned.announce(workReturned(words)) }
        }
    }
}

import Foundation
import LockstepRuntime
import LockstepTestSupport
import Testing

/// The reference catalogue (`Sources/lockstep/Lockstep.docc`) stays in step with the code: every command and option
/// the built tools print in their usage text, and every manifest key the reader takes, appears in the code of some
/// article; every article is on the landing page; every section a file cites as `<doc:…> "Title"` is a heading of that
/// article; and no file cites a document the repository does not hold.
@Suite struct DocumentationTests {
    /// The repository's root: this file is `Tests/LaunchKitTests/DocumentationTests.swift`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let catalogue = root.appendingPathComponent("Sources/lockstep/Lockstep.docc")

    /// Each article's name (without `.md`) and text.
    static func articles() throws -> [String: String] {
        var articles: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: catalogue.path) where name.hasSuffix(".md") {
            articles[String(name.dropLast(3))] = try String(contentsOf: catalogue.appendingPathComponent(name), encoding: .utf8)
        }
        return articles
    }

    /// What the articles show as code: fenced blocks and `code spans`, where a command, option or key is written
    /// as the user types it (a word in prose would match too easily).
    static func codeText() throws -> String {
        var code: [String] = []
        for text in try articles().values {
            var fenced = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle(); continue }
                if fenced { code.append(String(line)); continue }
                let spans = line.split(separator: "`", omittingEmptySubsequences: false)
                code += spans.enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            }
        }
        return code.joined(separator: "\n")
    }

    /// Whether `token` occurs in `text` with no letter, digit, `-` or `_` on either side.
    static func contains(_ text: String, word token: String) -> Bool {
        var searchRange = text.startIndex..<text.endIndex
        while let found = text.range(of: token, range: searchRange) {
            let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
            let isWordPart: (Character?) -> Bool = { $0.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } ?? false }
            if !isWordPart(before) && !isWordPart(after) { return true }
            searchRange = found.upperBound..<text.endIndex
        }
        return false
    }

    /// Every match of `pattern`'s first capture group in `text`.
    static func captures(_ pattern: String, in text: String) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// The options a usage text names: `--keep-running`, `-int` (not `--PARAMETER`, a placeholder).
    static func options(in usage: String) throws -> Set<String> {
        Set(try captures(#"(?<![\w-])(--?[a-z][a-z0-9-]*)"#, in: usage))
    }

    @Test func everyCommandAndOptionOfLockstepIsInTheCatalogue() throws {
        let help = try run(TestSupport.executable("lockstep"), ["--help"])
        #expect(help.status == 0, "\(help)")
        let commands = try Self.captures(#"(?m)^  ([a-z]+) {2,}\S"#, in: help.stdout)
        try #require(commands.count >= 10, "lockstep --help lists its commands: \(help.stdout)")
        let code = try Self.codeText()
        for command in commands {
            #expect(Self.contains(code, word: "lockstep \(command)"), "no article shows `lockstep \(command)`")
            let usage = try run(TestSupport.executable("lockstep"), [command, "--help"])
            #expect(usage.status == 0, "\(usage)")
            for option in try Self.options(in: usage.stdout) {
                #expect(Self.contains(code, word: option), "no article shows \(option) of `lockstep \(command)`")
            }
        }
    }

    /// The Habits bundles' usage texts: each command word and option.
    @Test func everyCommandOfTheSimulatedExecutablesIsInTheCatalogue() throws {
        let code = try Self.codeText()
        let groups = TestSupport.temporaryDirectory("documentation")
        defer { TestSupport.cleanUp(groups) }
        for executable in ["lockstep-host", "lockstep-widget", "lockstep-watch", "lockstep-intent", "lockstep-notification",
                           "lockstep-share", "lockstep-clip"] {
            let usage = try run(TestSupport.executable(executable), ["--help"], environment: ["LOCKSTEP_GROUPS": groups.path])
            #expect(usage.status == 0, "\(usage)")
            #expect(Self.contains(code, word: executable), "no article shows \(executable)")
            // The usage line after the program's name, and a "commands:" line: alternatives separated by `|`.
            let text = usage.stdout.replacingOccurrences(of: "usage: \(executable)", with: "")
                .replacingOccurrences(of: "commands:", with: "|")
            var words: Set<String> = try Self.options(in: text)
            for alternative in text.split(whereSeparator: { "|\n".contains($0) }) {
                let stripped = alternative.replacingOccurrences(of: "[--kind KIND]", with: "")
                    .trimmingCharacters(in: CharacterSet(charactersIn: " []…"))
                if let first = stripped.split(separator: " ").first, first.allSatisfy({ $0.isLowercase || $0 == "-" }),
                   first.first?.isLetter == true {
                    words.insert(String(first))
                }
            }
            try #require(!words.isEmpty, "\(executable) --help names its commands: \(usage.stdout)")
            for word in words {
                #expect(Self.contains(code, word: word), "no article shows `\(word)` of \(executable)")
            }
        }
    }

    /// Every key the manifest reader takes (and every key of the embedded default `lockstep init` prints).
    @Test func everyManifestKeyIsInTheCatalogue() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        var reader: String?
        while let path = enumerator.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            if text.contains("public struct Manifest:") { reader = text }
        }
        let manifestReader = try #require(reader, "the file that defines Manifest")
        // `object["appGroups"]`, `string("name")`, `plist("infoPlist")`, and the inline table's `("buildVersion", "CFBundleVersion", …)`.
        var keys: Set<String> = []
        for pattern in [#"object\["([a-zA-Z]+)"\]"#, #"(?<!\.)string\("([a-zA-Z]+)"\)"#, #"plist\("([a-zA-Z]+)"\)"#, #"\(\s*"([a-z][a-zA-Z]+)", "[A-Za-z]+", \{"#] {
            keys.formUnion(try Self.captures(pattern, in: manifestReader))
        }
        keys.insert(BundleInfo.field)
        let initialized = try run(TestSupport.executable("lockstep"), ["init"])
        #expect(initialized.status == 0, "\(initialized)")
        keys.formUnion(try Self.captures(#""([a-zA-Z]+)"\s*:"#, in: initialized.stdout))
        for required in ["manifestVersion", "app", "embedded", "executable", "appGroups", "extensionPoint", "infoPlist", "role"] {
            #expect(keys.contains(required), "the reader's keys, as this test finds them, include \(required): \(keys.sorted())")
        }
        let code = try Self.codeText()
        for key in keys {
            #expect(Self.contains(code, word: key), "no article shows the manifest key `\(key)`")
        }
    }

    /// `Manifest.embeddedDefaultText` says it is exactly what <doc:Design> shows: the article's manifest is what
    /// `lockstep init` prints, byte for byte.
    @Test func theDesignShowsTheManifestLockstepInitPrints() throws {
        let initialized = try run(TestSupport.executable("lockstep"), ["init"])
        #expect(initialized.status == 0, "\(initialized)")
        let design = try #require(try Self.articles()["Design"])
        let shown = "```json\n" + initialized.stdout.trimmingCharacters(in: .newlines) + "\n```"
        #expect(design.contains(shown), "Design.md \"The manifest\" differs from `lockstep init`; paste its output there")
    }

    /// The landing page links every article of the catalogue, and every article a file cites by `<doc:…>`.
    @Test func theLandingPageLinksEveryArticle() throws {
        let articles = try Self.articles()
        let landing = try #require(articles["Lockstep"])
        let linked = Set(try Self.captures(#"<doc:([A-Za-z]+)>"#, in: landing))
        for name in articles.keys where name != "Lockstep" {
            #expect(linked.contains(name), "Lockstep.md's Topics do not link \(name)")
        }
        for (file, text) in try Self.repositoryFiles() {
            for cited in try Self.captures(#"<doc:([A-Za-z]+)>"#, in: text) where cited != "Lockstep" {
                #expect(linked.contains(cited), "\(file) cites <doc:\(cited)>, which Lockstep.md's Topics do not link")
            }
        }
    }

    /// `<doc:Design> "The manifest"`: where the article exists, the section is one of its headings.
    @Test func everyCitedSectionIsAHeadingOfItsArticle() throws {
        let articles = try Self.articles()
        var checked = 0
        for (file, text) in try Self.repositoryFiles() {
            // Not in a code span: `<doc:Rules> "Title"` shows the syntax.
            let expression = try NSRegularExpression(pattern: #"(?<!`)<doc:([A-Za-z]+)> "([^"]+)""#)
            for match in expression.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let nameRange = Range(match.range(at: 1), in: text), let titleRange = Range(match.range(at: 2), in: text),
                      let article = articles[String(text[nameRange])] else { continue }
                // A title a comment wraps continues on the next comment line: `"What the\n/// checkout …"`.
                let title = String(text[titleRange]).replacingOccurrences(of: #"\s*\n\s*(//+)?\s*"#, with: " ", options: .regularExpression)
                let headings = Self.headings(of: article)
                #expect(headings.contains(title), "\(file) cites <doc:\(text[nameRange])> \"\(title)\", which is no heading of it")
                checked += 1
            }
        }
        #expect(checked > 0, "the sources cite sections of the catalogue's articles")
    }

    /// The article's headings (`## The manifest` → "The manifest"), outside fenced code.
    static func headings(of article: String) -> [String] {
        var fenced = false
        var headings: [String] = []
        for line in article.split(separator: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle(); continue }
            if !fenced && line.hasPrefix("#") { headings.append(line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)) }
        }
        return headings
    }

    /// No file cites a document the repository does not hold (the project's rules and design notes are articles).
    @Test func noFileCitesADocumentTheRepositoryDoesNotHold() throws {
        let files = try Self.repositoryFiles()
        try #require(files.count > 100, "the repository's files are found from \(Self.root.path)")
        // Spelled in parts, so that this file does not cite them itself.
        for document in ["RULES" + ".md", "DESIGN" + ".md"] where !files.keys.contains(where: { $0.hasSuffix("/" + document) || $0 == document }) {
            let citing = files.filter { $0.value.contains(document) }.map(\.key).sorted()
            #expect(citing.isEmpty, "\(citing.count) files cite \(document), which the repository does not hold: \(citing.prefix(10))")
        }
    }

    /// Every text file of the repository (relative path → text), outside build folders and git's own.
    static func repositoryFiles() throws -> [String: String] {
        let enumerator = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey]))
        var files: [String: String] = [:]
        let rootPath = root.standardizedFileURL.path + "/"
        while let url = enumerator.nextObject() as? URL {
            let name = url.lastPathComponent
            if [".build", ".git", ".swiftpm", "groups"].contains(name) && url.hasDirectoryPath {
                // groups/ is the default groups root: only its README is the repository's.
                if name == "groups", let readme = try? String(contentsOf: url.appendingPathComponent("README.md"), encoding: .utf8) {
                    files["groups/README.md"] = readme
                }
                enumerator.skipDescendants()
                continue
            }
            let values = try url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey])
            guard values.isRegularFile == true, (values.fileSize ?? 0) < 4_000_000,
                  let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            files[String(url.standardizedFileURL.path.dropFirst(rootPath.count))] = text
        }
        return files
    }
}

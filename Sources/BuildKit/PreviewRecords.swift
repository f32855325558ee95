/// Xcode finds a file's `PreviewProvider`s by reflection, which Swift on Linux does not offer. The build copy of a
/// file records each one in the executable's `lockstep_previews` section instead, as `#Preview` records itself
/// (SwiftUI's `_LockstepPreviews`), so a widget executable's `previews` command and `lockstep gallery` draw them.
///
/// The record is written at the start of the declaration's own line: it lies under the same `#if` as the type, and
/// every line keeps its number. Only a file-scope, non-generic type whose declaration line starts the line and has
/// no attribute line above it is recorded (a record cannot sit between an attribute and its declaration); any other
/// is left as it is, and builds as before.
enum PreviewRecords {
    static func record(_ source: String, fileID: String) -> String {
        guard source.contains("PreviewProvider") else { return source }
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var inBlockComment = 0
        var inMultilineString = false
        var previous = ""
        for index in lines.indices {
            let line = lines[index]
            if inBlockComment == 0, !inMultilineString, !previous.hasPrefix("@"), let name = providerName(line) {
                let fileIDLiteral = fileID.unicodeScalars.map { $0 == "\"" || $0 == "\\" ? "_" : String($0) }.joined()
                lines[index] = "@section(\"lockstep_previews\") @used private let _lockstepPreviewRecord\(index + 1): @convention(c) () -> Void = "
                    + "{ _LockstepPreviews.register({ _LockstepPreview(provider: \(name).self) }, fileID: \"\(fileIDLiteral)\", line: \(index + 1)) }; "
                    + line
            }
            PlatformConditions.track(Substring(line), blockComment: &inBlockComment, multilineString: &inMultilineString)
            let trimmed = line.trimmingSpaces
            if !trimmed.isEmpty, !trimmed.hasPrefix("//") { previous = trimmed }
        }
        return lines.joined(separator: "\n")
    }

    /// `Name` when `line` declares `struct Name: …PreviewProvider…` (or an enum or class) at file scope.
    static func providerName(_ line: String) -> String? {
        guard let first = line.first, first.isLetter else { return nil }  // indented: a member of another type
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
        let modifiers: Set<Substring> = ["public", "internal", "fileprivate", "private", "final", "package", "nonisolated"]
        while let word = words.first, modifiers.contains(word) { words = words.dropFirst() }
        guard let keyword = words.first, ["struct", "enum", "class"].contains(keyword), words.count > 1 else { return nil }
        let rest = words.dropFirst().joined(separator: " ")
        let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard !name.isEmpty, rest.dropFirst(name.count).drop(while: { $0 == " " }).first == ":" else { return nil }  // generic, or no conformance list
        let conformances = rest.dropFirst(name.count).prefix { $0 != "{" }
        let listed = conformances.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") })
        return listed.contains { $0 == "PreviewProvider" || $0 == "SwiftUI.PreviewProvider" } ? String(name) : nil
    }
}

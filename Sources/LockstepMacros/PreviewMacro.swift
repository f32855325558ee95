import Foundation

/// `#Preview`: the arguments are kept as written and handed to `_LockstepPreview`'s initializer of the same shape,
/// so the compiler checks them as it checks Apple's, and the preview is recorded in the executable's
/// `lockstep_previews` section, where `lockstep-widget previews` finds every one without a registry to keep.
///
///     #Preview("Name") { ContentView() }
///
/// becomes
///
///     @MainActor private func $…7previewfMu_() -> _LockstepPreview { _LockstepPreview("Name") { ContentView() } }
///     @section("lockstep_previews") @used
///     private let $…6recordfMu_: @convention(c) () -> Void = { _LockstepPreviews.register($…7previewfMu_, … ) }
enum PreviewMacro {
    static func expand(_ request: MacroRequest) throws -> String {
        // The source starts with the macro's leading trivia (the blank lines and comments before it), and its
        // location is where that trivia starts: the macro's own line is counted from there.
        let lines = request.syntax.source.split(separator: "\n", omittingEmptySubsequences: false)
        guard let index = lines.firstIndex(where: { line in
            let text = line.drop { $0 == " " || $0 == "\t" }
            return !text.hasPrefix("//") && text.contains("#Preview")
        }), let name = lines[index].range(of: "#Preview") else {
            throw ExpansionError(message: "#Preview's expansion did not start with '#Preview'.")
        }
        // Attributes before the macro (`@available(…)`) go on the function; comments stay behind.
        let attributes = (lines[..<index] + [lines[index][..<name.lowerBound]])
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("@") }.joined(separator: " ")
        let arguments = String(lines[index][name.upperBound...]) + lines[(index + 1)...].map { "\n" + $0 }.joined()
        guard let first = arguments.first, first == "(" || first == "{" || first == " " else {
            throw ExpansionError(message: "#Preview takes its arguments in parentheses or a trailing closure.")
        }
        let make = request.uniqueName("preview"), record = request.uniqueName("record")
        let location = request.syntax.location
        let line = location.line + index
        let file = location.fileID.unicodeScalars.map { $0 == "\"" || $0 == "\\" ? "_" : String($0) }.joined()
        return """
            \(attributes)
            @MainActor private func \(make)() -> _LockstepPreview {
                _LockstepPreview\(arguments)
            }
            @section("lockstep_previews") @used
            private let \(record): @convention(c) () -> Void = {
                _LockstepPreviews.register(\(make), fileID: "\(file)", line: \(line))
            }
            """
    }
}

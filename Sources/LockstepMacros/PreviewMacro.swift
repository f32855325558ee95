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
        let source = request.syntax.source
        // What precedes the macro's name (attributes such as `@available(…)`) goes on the function.
        guard let name = source.range(of: "#Preview") else {
            throw ExpansionError(message: "#Preview's expansion did not start with '#Preview'.")
        }
        let attributes = source[..<name.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        let arguments = source[name.upperBound...]
        guard let first = arguments.first, first == "(" || first == "{" || first == " " else {
            throw ExpansionError(message: "#Preview takes its arguments in parentheses or a trailing closure.")
        }
        let make = request.uniqueName("preview"), record = request.uniqueName("record")
        let location = request.syntax.location
        let file = location.fileID.unicodeScalars.map { $0 == "\"" || $0 == "\\" ? "_" : String($0) }.joined()
        return """
            \(attributes)
            @MainActor private func \(make)() -> _LockstepPreview {
                _LockstepPreview\(arguments)
            }
            @section("lockstep_previews") @used
            private let \(record): @convention(c) () -> Void = {
                _LockstepPreviews.register(\(make), fileID: "\(file)", line: \(location.line))
            }
            """
    }
}

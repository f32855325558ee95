import Foundation

// Foundation names Apple's Foundation has and Foundation on Linux leaves out, for code written against Apple's.

extension Data.WritingOptions {
    /// Apple's other name for `.atomic` (`NSDataWritingAtomic`): written to a temporary file, then renamed into place.
    public static let atomicWrite: Data.WritingOptions = .atomic
}

import Foundation
import LockstepRuntime
import LockstepSystem

/// Hosts your own share (or action) extension's request handling as a simulated process: the share sheet hands it the
/// items given as arguments, if its `NSExtensionActivationRule` accepts them, and waits for its answer (rule
/// `share.extension`).
///
/// ```swift
/// // Sources/HabitsShareExtension/main.swift
/// import LockstepFoundation
/// import HabitsShared
///
/// ShareExtension.main(principal: ShareHandler())   // ShareHandler: NSObject, NSExtensionRequestHandling
/// ```
///
/// An iOS share extension's principal class is usually a `UIViewController` (UIKit, absent on Linux); the work it
/// does with `extensionContext` belongs in a class adopting Foundation's `NSExtensionRequestHandling`, which runs here
/// unchanged. Arguments: `--text T`, `--url U`, `--image PATH`, `--file PATH`, each repeatable, one item each.
public enum ShareExtension {
    /// How long the share sheet waits for `completeRequest` or `cancelRequest`.
    public static let answerLimit = 60.0

    /// The entry point of a share extension executable, the one place that exits: 0 when the request is completed;
    /// 1 when the activation rule does not offer the extension for these items, it cancels, or it never answers;
    /// 64 for bad arguments; 78 for a version mismatch or a stale build.
    /// - Parameter principal: makes the principal object (iOS makes it from `NSExtensionPrincipalClass`), once, after the
    ///   activation rule has accepted the items.
    public static func main(principal: @autoclosure () -> NSObject & NSExtensionRequestHandling,
                            arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        SimulatedProcess.main(role: .share, usage: "\(Program.name) [--text T | --url U | --image PATH | --file PATH]…",
                              arguments: arguments) { process, arguments in
            let items = try SharedItems(arguments: arguments)
            try items.check(activation: process.bundle.activationSupports, bundle: process.bundle.bundleIdentifier ?? process.bundle.name)
            print(try serve(items, with: principal()))
        }
    }

    /// Runs the handler on a thread of its own and waits for its answer.
    static func serve(_ items: SharedItems, with handler: NSObject & NSExtensionRequestHandling) throws -> String {
        let answer = Handoff<NSExtensionContext.Answer>()
        let context = NSExtensionContext(inputItems: [items.extensionItem()]) { answer.set($0) }
        let started = Monotonic.now
        nonisolated(unsafe) let work = (handler: handler, context: context)
        Thread.detachNewThread { work.handler.beginRequest(with: work.context) }
        let milliseconds = { Int(((Monotonic.now - started) * 1000).rounded()) }
        switch answer.wait(timeout: answerLimit) {
        case .completed?:
            return "request completed: \(items.summary) shared (\(milliseconds()) ms)"
        case .cancelled(let error)?:
            throw ShareError(.failed, subject: items.summary, detail: "the extension cancelled the request: \(error.localizedDescription)")
        case nil:
            throw ShareError(.failed, subject: items.summary, detail: "the extension called neither completeRequest nor cancelRequest within \(Int(answerLimit)) s")
        }
    }
}

/// The items of one share: kinds in order, with their `NSExtensionActivationSupports…` key.
struct SharedItems {
    enum Kind: String, CaseIterable {
        case text, url, image, file

        var activationKey: String {
            switch self {
            case .text: "NSExtensionActivationSupportsText"
            case .url: "NSExtensionActivationSupportsWebURLWithMaxCount"
            case .image: "NSExtensionActivationSupportsImageWithMaxCount"
            case .file: "NSExtensionActivationSupportsFileWithMaxCount"
            }
        }
    }

    var items: [(kind: Kind, value: String)] = []

    init(arguments: [String]) throws {
        var index = 0
        while index < arguments.count {
            guard arguments[index].hasPrefix("--"), let kind = Kind(rawValue: String(arguments[index].dropFirst(2))), index + 1 < arguments.count else {
                throw ShareError(.usage, subject: arguments.joined(separator: " "), detail: "give the items to share as --text T, --url U, --image PATH or --file PATH")
            }
            items.append((kind, arguments[index + 1]))
            index += 2
        }
        guard !items.isEmpty else {
            throw ShareError(.usage, subject: "", detail: "give the items to share as --text T, --url U, --image PATH or --file PATH")
        }
    }

    var summary: String { items.map { "\($0.kind.rawValue) '\($0.value)'" }.joined(separator: ", ") }

    /// rule `share.extension`: the extension is offered only when its rule accepts every item: the kind's key is
    /// present, true for text, and the count of that kind within the key's maximum.
    func check(activation supports: [String: Int], bundle: String) throws {
        for kind in Kind.allCases {
            let count = items.filter { $0.kind == kind }.count
            guard count > 0 else { continue }
            let allowed = supports[kind.activationKey] ?? 0
            let fits = kind == .text ? allowed > 0 : count <= allowed
            guard fits else {
                let rule = kind == .text ? "\(kind.activationKey) is \(allowed > 0)" : "\(kind.activationKey) is \(allowed)"
                throw ShareError(.failed, subject: summary, detail: "the share sheet does not offer \(bundle) for \(count) \(kind.rawValue) item\(count == 1 ? "" : "s"): its NSExtensionActivationRule's \(rule)")
            }
        }
    }

    /// One `NSExtensionItem` whose attachments are the items, as Safari or Photos hands them over.
    func extensionItem() -> NSExtensionItem {
        let item = NSExtensionItem()
        item.attachments = items.map { kind, value in
            switch kind {
            case .text: NSItemProvider(item: NSString(string: value), typeIdentifier: UTTypeIdentifier.plainText)
            case .url: NSItemProvider(item: (URL(string: value) ?? URL(fileURLWithPath: value)) as NSURL, typeIdentifier: UTTypeIdentifier.url)
            case .image: NSItemProvider(item: URL(fileURLWithPath: value) as NSURL, typeIdentifier: UTTypeIdentifier.image)
            case .file: NSItemProvider(item: URL(fileURLWithPath: value) as NSURL, typeIdentifier: UTTypeIdentifier.fileURL)
            }
        }
        return item
    }
}

/// A share the extension does not take: one sentence naming what was shared (`subject`).
public typealias ShareError = CodedError<ShareErrorCode>

/// What a `ShareError` is.
public enum ShareErrorCode: ErrorCode {
    /// The extension cancelled, never answered, or is not offered for these items (exit 1).
    case failed
    /// Arguments that name no item to share (exit 64).
    case usage

    public func sentence(subject: String, detail: String) -> String {
        subject.isEmpty ? "Nothing to share: \(detail)." : "Sharing \(subject) failed: \(detail)."
    }

    public var exitStatus: ExitStatus { self == .usage ? .usage : .failure }
}

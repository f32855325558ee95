// The Swift half of the module `os` (its clang half, Sources/COSLog, makes `import os.log` resolve). Apple's frameworks
// re-export Foundation, and `os` is imported on its own in real code.
@_exported import os
@_exported import Foundation
import LockstepSystem

/// A log message's level, as Apple's `OSLogType`.
public struct OSLogType: Equatable, RawRepresentable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let `default` = OSLogType(rawValue: 0x00)
    public static let info = OSLogType(rawValue: 0x01)
    public static let debug = OSLogType(rawValue: 0x02)
    public static let error = OSLogType(rawValue: 0x10)
    public static let fault = OSLogType(rawValue: 0x11)

    /// How the line names the level (Console's names).
    var name: String {
        switch self {
        case .info: "Info"
        case .debug: "Debug"
        case .error: "Error"
        case .fault: "Fault"
        default: "Default"
        }
    }
}

/// A log: a subsystem and a category, as Apple's `OSLog`. Each line a process logs goes to its stderr, one whole line
/// in one write, carrying subsystem, category and level — where `lockstep up` shows it under the bundle's prefix.
open class OSLog: NSObject, @unchecked Sendable {  // @unchecked: immutable.
    /// The categories Apple reserves for signposts.
    public struct Category: RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let pointsOfInterest = Category(rawValue: "PointsOfInterest")
        public static let dynamicTracing = Category(rawValue: "DynamicTracing")
        public static let dynamicStackTracing = Category(rawValue: "DynamicStackTracing")
    }

    let subsystem: String
    let category: String
    let enabled: Bool

    private init(subsystem: String, category: String, enabled: Bool) {
        self.subsystem = subsystem
        self.category = category
        self.enabled = enabled
        super.init()
    }

    public convenience init(subsystem: String, category: String) {
        self.init(subsystem: subsystem, category: category, enabled: true)
    }

    public convenience init(subsystem: String, category: OSLog.Category) {
        self.init(subsystem: subsystem, category: category.rawValue, enabled: true)
    }

    /// The log without a subsystem.
    public static let `default` = OSLog(subsystem: "", category: "", enabled: true)
    /// A log that drops every message.
    public static let disabled = OSLog(subsystem: "", category: "", enabled: false)

    /// Whether a message of `type` is recorded: every level is, except on `.disabled`.
    public func isEnabled(type: OSLogType) -> Bool { enabled }

    /// Signposts are not recorded.
    public var signpostsEnabled: Bool { false }

    /// Writes one line: `[subsystem:category] Level: message` (no brackets for a log without a subsystem).
    func write(_ type: OSLogType, _ text: String) {
        guard enabled else { return }
        let place = subsystem.isEmpty && category.isEmpty ? "" : "[\(subsystem):\(category)] "
        // One message, one line: a newline inside it is written as \n, so every line on stderr carries its
        // subsystem, category and level (and `lockstep up` its bundle's prefix).
        Standard.error("\(place)\(type.name): \(text.replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\n", with: "\\n"))")
    }
}

/// Apple's `Logger`: `Logger(subsystem:category:)` and its level methods.
public struct Logger: @unchecked Sendable {  // @unchecked: holds an immutable OSLog.
    let log: OSLog

    /// The default log (no subsystem).
    public init() { log = .default }
    public init(subsystem: String, category: String) { log = OSLog(subsystem: subsystem, category: category) }
    public init(_ logObj: OSLog) { log = logObj }

    public func log(_ message: OSLogMessage) { log.write(.default, message.rendered) }
    public func log(level: OSLogType, _ message: OSLogMessage) { log.write(level, message.rendered) }
    /// Debug level.
    public func trace(_ message: OSLogMessage) { log.write(.debug, message.rendered) }
    public func debug(_ message: OSLogMessage) { log.write(.debug, message.rendered) }
    public func info(_ message: OSLogMessage) { log.write(.info, message.rendered) }
    /// Default level.
    public func notice(_ message: OSLogMessage) { log.write(.default, message.rendered) }
    /// Error level.
    public func warning(_ message: OSLogMessage) { log.write(.error, message.rendered) }
    public func error(_ message: OSLogMessage) { log.write(.error, message.rendered) }
    /// Fault level.
    public func critical(_ message: OSLogMessage) { log.write(.fault, message.rendered) }
    public func fault(_ message: OSLogMessage) { log.write(.fault, message.rendered) }
}

// MARK: os_log

/// `os_log` with a C format (`%@`, `%d`, `%{public}@` …): dynamic strings and objects are private unless marked
/// `{public}`, scalars public unless marked `{private}`, as on a device.
public func os_log(_ message: StaticString, dso: UnsafeRawPointer? = #dsohandle, log: OSLog = .default,
                   type: OSLogType = .default, _ args: any CVarArg...) {
    log.write(type, CFormat.render(message.description, args))
}

public func os_log(_ type: OSLogType, dso: UnsafeRawPointer? = #dsohandle, log: OSLog = .default,
                   _ message: StaticString, _ args: any CVarArg...) {
    log.write(type, CFormat.render(message.description, args))
}

@_disfavoredOverload
public func os_log(_ message: OSLogMessage, dso: UnsafeRawPointer? = #dsohandle, log: OSLog = .default,
                   type: OSLogType = .default) {
    log.write(type, message.rendered)
}

@_disfavoredOverload
public func os_log(_ type: OSLogType, dso: UnsafeRawPointer? = #dsohandle, log: OSLog = .default,
                   _ message: OSLogMessage) {
    log.write(type, message.rendered)
}

/// A C format as os_log reads it.
enum CFormat {
    static func render(_ format: String, _ args: [any CVarArg]) -> String {
        var output = ""
        var remaining = args[...]
        let scalars = Array(format.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            guard scalar == "%" else { output.unicodeScalars.append(scalar); continue }
            if index < scalars.count, scalars[index] == "%" { output += "%"; index += 1; continue }
            // `{public}`, `{private}`, `{private, mask.hash}` …
            var tags: [String] = []
            if index < scalars.count, scalars[index] == "{" {
                var tag = ""
                index += 1
                while index < scalars.count, scalars[index] != "}" { tag.unicodeScalars.append(scalars[index]); index += 1 }
                index += 1
                tags = tag.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
            var spec = "%"
            while index < scalars.count, "-+ #0123456789.*hlqLzjt".unicodeScalars.contains(scalars[index]) {
                spec.unicodeScalars.append(scalars[index])
                index += 1
            }
            guard index < scalars.count else { output += spec; break }
            let conversion = scalars[index]
            index += 1
            spec.unicodeScalars.append(conversion)
            guard let argument = remaining.popFirst() else { output += "<missing argument>"; continue }
            let isObject = conversion == "@" || conversion == "s"
            let text: String
            if isObject {
                text = String(describing: argument)
            } else if tags.contains("bool") || tags.contains("BOOL") {
                text = Self.isTrue(argument) ? (tags.contains("BOOL") ? "YES" : "true") : (tags.contains("BOOL") ? "NO" : "false")
            } else {
                text = String(format: spec, argument)
            }
            let privacy: OSLogPrivacy
            if tags.contains("public") {
                privacy = .public
            } else if tags.contains("private") || tags.contains("sensitive") {
                privacy = tags.contains("mask.hash") ? .private(mask: .hash) : .private
            } else {
                privacy = .auto
            }
            output += privacy.apply(to: text, dynamic: isObject)
        }
        return output
    }

    private static func isTrue(_ argument: any CVarArg) -> Bool {
        switch argument {
        case let flag as Bool: flag
        case let number as any BinaryInteger: Int(truncatingIfNeeded: number) != 0
        default: false
        }
    }
}

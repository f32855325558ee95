import LockstepSystem

/// A simulated device. Each has its own folder under the groups root, so a group container on the watch is
/// watch-local even with the same group id (rule `group.watch-separate`), and a Darwin notification posted on
/// the phone never reaches the watch.
public enum Device: String, Sendable, CaseIterable {
    case phone, watch
}

/// Who a simulated process is: its bundle id, the App Groups its entitlements list, and the device it runs on.
///
/// Plain values, so any caller (a manifest reader, a test) can build one.
public struct ProcessIdentity: Equatable, Sendable {
    /// `CFBundleIdentifier`.
    public var bundleIdentifier: String
    /// `com.apple.security.application-groups`.
    public var appGroups: [String]
    public var device: Device

    public init(bundleIdentifier: String, appGroups: [String], device: Device = .phone) {
        self.bundleIdentifier = bundleIdentifier
        self.appGroups = appGroups
        self.device = device
    }
}

/// A container directory: a bundle's private container or an App Group container.
public struct Container: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// `<root>/<device>/Data/<bundle-id>/` (rule `container.private`).
        case privateContainer(bundleIdentifier: String)
        /// `<root>/<device>/AppGroup/<group-id>/` (rule `group.layout`).
        case group(identifier: String)
    }

    public let kind: Kind
    /// The container's folder (exists once the container is returned by `Sandbox`).
    public let path: String

    /// `Library/Preferences` inside the container, where defaults suites live.
    public var preferencesPath: String { GroupsLayout.preferences(container: path) }
    /// The folder for Lockstep's own bookkeeping (locks, journals): never handed out by `resolve`.
    var bookkeepingPath: String { GroupsLayout.bookkeeping(container: path) }

    /// The absolute path of `relativePath` inside the container, refusing any way out.
    ///
    /// - Throws: `AppGroupError` `.pathEscape` for an absolute path, a `..` component, a path into `.lockstep/`,
    ///   or a symlink (anywhere along the path) that resolves outside the container.
    public func resolve(_ relativePath: String) throws(AppGroupError) -> String {
        guard !relativePath.isEmpty, !relativePath.contains("\0") else {
            throw AppGroupError(.pathEscape, subject: relativePath, detail: "a file name must not be empty")
        }
        guard !relativePath.hasPrefix("/") else {
            throw AppGroupError(.pathEscape, subject: relativePath, detail: "absolute paths are refused")
        }
        // `.` components name nothing: `./.lockstep/x` is `.lockstep/x`.
        let components = relativePath.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        if components.contains("..") {
            throw AppGroupError(.pathEscape, subject: relativePath, detail: "'..' components are refused")
        }
        guard !components.isEmpty else {
            throw AppGroupError(.pathEscape, subject: relativePath, detail: "it names the container itself, not a file in it")
        }
        if components.first == ".lockstep" {
            throw AppGroupError(.pathEscape, subject: relativePath, detail: "'.lockstep' is reserved for Lockstep's locks")
        }
        let joined = "\(path)/" + components.joined(separator: "/")
        // A symlink along the path may point outside, or into the bookkeeping folder (a lock file replaced there
        // would end the mutual exclusion of every writer): resolve the deepest existing ancestor and compare.
        guard let base = Self.realPath(path) else { return joined }
        var existing = joined
        while Self.realPath(existing) == nil, existing.count > path.count {
            existing = String(existing[..<(existing.lastIndex(of: "/") ?? existing.startIndex)])
        }
        if let resolved = Self.realPath(existing) {
            if resolved != base, !resolved.hasPrefix(base + "/") {
                throw AppGroupError(.pathEscape, subject: relativePath, detail: "a symlink leads to '\(resolved)'")
            }
            let bookkeeping = base + "/" + GroupsLayout.bookkeepingFolderName
            if resolved == bookkeeping || resolved.hasPrefix(bookkeeping + "/") {
                throw AppGroupError(.pathEscape, subject: relativePath, detail: "a symlink leads into '.lockstep', which is reserved for Lockstep's locks")
            }
        }
        // A dangling symlink as the last component would let a write create a file outside.
        if FileSystem.isSymbolicLink(joined), Self.realPath(joined) == nil {
            throw AppGroupError(.pathEscape, subject: relativePath, detail: "it is a symlink to a missing target")
        }
        return joined
    }

    static func realPath(_ path: String) -> String? { FileSystem.realPath(path) }
}

/// What the simulated OS gives one process: its private container and the group containers it is entitled to.
public struct Sandbox: Sendable {
    public let root: GroupsRoot
    public let identity: ProcessIdentity

    /// - Throws: `.invalidIdentifier` when the bundle id is not a reverse-DNS identifier.
    public init(root: GroupsRoot, identity: ProcessIdentity) throws(AppGroupError) {
        try Identifier.validateBundle(identity.bundleIdentifier)
        self.root = root
        self.identity = identity
    }

    /// Where the bundle's private container is, without creating it: a process that may never use it (the widget)
    /// leaves it to the first `privateContainer()` call, which creates it.
    public var privateContainerPath: String { root.layout.privateContainer(identity.bundleIdentifier, on: identity.device) }

    /// The bundle's private container, created if needed (rule `container.private`).
    public func privateContainer() throws(AppGroupError) -> Container {
        let path = privateContainerPath
        try create([path] + GroupsLayout.standardFolders(container: path, isPrivate: true))
        return Container(kind: .privateContainer(bundleIdentifier: identity.bundleIdentifier), path: path)
    }

    /// `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`: the group container, created with its
    /// conventional layout, or `nil` when the process is not entitled to the group (rule `group.entitlement`).
    ///
    /// - Throws: `.invalidIdentifier` when `groupIdentifier` is not `group.<reverse-dns>` (rule `group.id-format`);
    ///   iOS returns nil then too, Lockstep says why.
    public func groupContainer(_ groupIdentifier: String) throws(AppGroupError) -> Container? {
        try Identifier.validateGroup(groupIdentifier)
        // rule `group.entitlement`: the entitlement must list the identifier exactly.
        guard identity.appGroups.contains(groupIdentifier) else { return nil }
        let path = root.layout.groupContainer(groupIdentifier, on: identity.device)
        // rule `group.layout`.
        try create([path] + GroupsLayout.standardFolders(container: path, isPrivate: false))
        return Container(kind: .group(identifier: groupIdentifier), path: path)
    }

    /// Like `groupContainer(_:)`, but throws `.notEntitled` (exit 77) instead of returning nil.
    public func requireGroupContainer(_ groupIdentifier: String) throws(AppGroupError) -> Container {
        guard let container = try groupContainer(groupIdentifier) else {
            throw AppGroupError(.notEntitled, subject: groupIdentifier, detail: "'\(identity.bundleIdentifier)' (App Groups: \(identity.appGroups.isEmpty ? "none" : identity.appGroups.joined(separator: ", ")))")
        }
        return container
    }

    /// The device-wide folder where Darwin notification counters live (`<root>/<device>/.lockstep/notify`).
    var notificationsPath: String { root.layout.notifications(on: identity.device) }

    private func create(_ paths: [String]) throws(AppGroupError) {
        for path in paths {
            do { try AtomicFile.createDirectories(path, mode: 0o755) } catch { throw AppGroupError(error) }
        }
    }
}

/// Validation of the names that become file names: nothing that could climb out of a folder gets through.
enum Identifier {
    /// Letters, digits, `-` and `.`, in non-empty dot-separated components (reverse-DNS).
    static func isReverseDNS(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 255 else { return false }
        for component in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard !component.isEmpty else { return false }
            for byte in component.utf8 {
                let ok = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D
                if !ok { return false }
            }
        }
        return true
    }

    /// rule `group.id-format`: `group.<name>` with a reverse-DNS name.
    ///
    /// A part written as a build setting (`group.$(SAMPLE_CODE_DISAMBIGUATOR).com.example`,
    /// `group.$(TeamIdentifierPrefix)com.example`) is a value the checkout does not hold, as `check` keeps it
    /// (<doc:ReadingProjects> "What the checkout does not hold"): it stands for itself, so the bundles that claim the
    /// same text share the group, and the rest of the identifier is validated around it. No reference climbs out
    /// of a folder: its name has no `/` and no `.`.
    static func validateGroup(_ identifier: String) throws(AppGroupError) {
        let shape = withSettingsAsWords(identifier)
        guard shape.hasPrefix("group.") else {
            throw AppGroupError(.invalidIdentifier, subject: identifier, detail: "an iOS App Group identifier starts with 'group.' [group.id-format]")
        }
        guard isReverseDNS(shape) else {
            throw AppGroupError(.invalidIdentifier, subject: identifier, detail: "an App Group identifier is 'group.' followed by reverse-DNS components of letters, digits and '-' [group.id-format]")
        }
    }

    /// `text` with each build-setting reference — `$(NAME)` or `${NAME}`, NAME of letters, digits and `_` — as one
    /// word (`X`): the shape the rest of the text must have whatever the setting holds.
    static func withSettingsAsWords(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "$")) else { return text }
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "$"), index + 1 < bytes.count,
               let close: UInt8 = bytes[index + 1] == UInt8(ascii: "(") ? UInt8(ascii: ")") : bytes[index + 1] == UInt8(ascii: "{") ? UInt8(ascii: "}") : nil {
                var end = index + 2
                while end < bytes.count, bytes[end] == UInt8(ascii: "_") || (0x30...0x39).contains(bytes[end])
                        || (0x41...0x5A).contains(bytes[end]) || (0x61...0x7A).contains(bytes[end]) { end += 1 }
                if end > index + 2, end < bytes.count, bytes[end] == close {
                    out.append(UInt8(ascii: "X"))
                    index = end + 1
                    continue
                }
            }
            out.append(bytes[index])
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func validateBundle(_ identifier: String) throws(AppGroupError) {
        guard isReverseDNS(identifier) else {
            throw AppGroupError(.invalidIdentifier, subject: identifier, detail: "a bundle identifier is reverse-DNS components of letters, digits and '-' [bundle-id.charset]")
        }
    }

    /// A name used as one file name (a defaults suite, a notification): printable, no `/`, not `.`/`..`, not hidden.
    static func validateFileName(_ name: String, what: String) throws(AppGroupError) {
        guard !name.isEmpty, name.utf8.count <= 200, !name.hasPrefix("."),
              !name.utf8.contains(where: { $0 == 0x2F || $0 < 0x20 || $0 == 0x7F }) else {
            throw AppGroupError(.invalidIdentifier, subject: name, detail: "a \(what) must be a non-empty name without '/', control characters or a leading '.'")
        }
    }
}

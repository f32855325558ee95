import Foundation

/// The compiler's side of the conversation: each message is a little-endian 64-bit byte count, then that many
/// bytes of JSON. Swift's synthesized `Codable` for an enum with associated values writes exactly the shape the
/// compiler uses (`{"case":{"label":value,…}}`), so the messages are declared here as such enums, with only the
/// fields Lockstep reads; keys it does not read are ignored.
enum HostMessage: Decodable {
    case getCapability(capability: HostCapability?)
    case expandFreestandingMacro(macro: MacroReference, discriminator: String, syntax: Syntax)
    case expandAttachedMacro(macro: MacroReference, macroRole: String?, discriminator: String, attributeSyntax: Syntax,
                             declSyntax: Syntax, extendedTypeSyntax: Syntax?)
    case loadPluginLibrary(libraryPath: String, moduleName: String)

    struct HostCapability: Decodable { let protocolVersion: Int }
    struct MacroReference: Decodable { let moduleName: String, typeName: String, name: String }
    struct Syntax: Decodable {
        let source: String
        let location: Location
    }
    struct Location: Decodable {
        let fileID: String
        let fileName: String
        let offset: Int
        let line: Int
        let column: Int
    }
}

enum PluginMessage: Encodable {
    case getCapabilityResult(capability: Capability)
    case expandMacroResult(expandedSource: String?, diagnostics: [Diagnostic])
    case loadPluginLibraryResult(loaded: Bool, diagnostics: [Diagnostic])

    struct Capability: Encodable { let protocolVersion: Int }

    /// An error shown at the macro's place in the team's file.
    struct Diagnostic: Encodable {
        struct Position: Encodable { let fileName: String, offset: Int }
        let message: String
        let severity = "error"
        let position: Position
        let highlights: [Position] = []
        let notes: [Position] = []
        let fixIts: [Position] = []

        init(_ message: String, at syntax: HostMessage.Syntax) {
            self.message = message
            position = Position(fileName: syntax.location.fileName, offset: syntax.location.offset)
        }
    }
}

/// What a macro is asked to expand, and what it needs to name what it declares.
struct MacroRequest {
    let syntax: HostMessage.Syntax
    let discriminator: String
    /// For an attached macro: the role asked for (`member`, `memberAttribute`, `extension`, `accessor`, `peer`).
    var role: String?
    /// For an extension: the type extended.
    var extendedType: HostMessage.Syntax?

    /// A name no other expansion uses: the form the compiler accepts from a freestanding macro at file scope
    /// without a `names:` list (the discriminator, the name's length and the name, `fMu`, an index, `_`).
    func uniqueName(_ name: String) -> String { "\(discriminator)\(name.utf8.count)\(name)fMu_" }
}

/// Why an expansion failed, said at the macro's place in the file.
struct ExpansionError: Error {
    let message: String
}

enum PluginConnection {
    /// The protocol version Lockstep's messages follow (the compiler speaks to older plug-ins in their version).
    static let protocolVersion = 7

    /// Answers the compiler until it closes stdin.
    static func serve(macros: [String: (MacroRequest) throws -> String]) {
        let input = FileHandle.standardInput, output = FileHandle.standardOutput
        while let message = read(input) {
            let reply: PluginMessage
            switch message {
            case .success(.getCapability):
                reply = .getCapabilityResult(capability: .init(protocolVersion: protocolVersion))
            case .success(.expandFreestandingMacro(let macro, let discriminator, let syntax)):
                reply = expand(macro, MacroRequest(syntax: syntax, discriminator: discriminator), with: macros)
            case .success(.expandAttachedMacro(let macro, let role, let discriminator, _, let syntax, let type)):
                reply = expand(macro, MacroRequest(syntax: syntax, discriminator: discriminator, role: role, extendedType: type), with: macros)
            case .success(.loadPluginLibrary):
                reply = .loadPluginLibraryResult(loaded: false, diagnostics: [])
            case .failure:
                // A message this plug-in does not know: no expansion, so the compiler reports the macro unexpanded.
                reply = .expandMacroResult(expandedSource: nil, diagnostics: [])
            }
            guard let payload = try? JSONEncoder().encode(reply) else { return }
            var header = UInt64(payload.count).littleEndian
            output.write(Data(bytes: &header, count: 8) + payload)
        }
    }

    private static func expand(_ macro: HostMessage.MacroReference, _ request: MacroRequest,
                               with macros: [String: (MacroRequest) throws -> String]) -> PluginMessage {
        do {
            guard let expand = macros[macro.typeName] else {
                throw ExpansionError(message: "Lockstep's macro plug-in has no macro '\(macro.typeName)'.")
            }
            return .expandMacroResult(expandedSource: try expand(request), diagnostics: [])
        } catch {
            let text = (error as? ExpansionError)?.message ?? "\(error)"
            return .expandMacroResult(expandedSource: nil, diagnostics: [.init(text, at: request.syntax)])
        }
    }

    /// The next message, a failure if it is not one this plug-in reads, or nil once the compiler closed stdin.
    private static func read(_ input: FileHandle) -> Result<HostMessage, any Error>? {
        guard let header = readExactly(8, from: input) else { return nil }
        let count = header.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        guard count < 1 << 31, let body = readExactly(Int(count), from: input) else { return nil }
        return Result { try JSONDecoder().decode(HostMessage.self, from: body) }
    }

    private static func readExactly(_ count: Int, from input: FileHandle) -> Data? {
        var data = Data()
        while data.count < count {
            let chunk = input.readData(ofLength: count - data.count)
            if chunk.isEmpty { return nil }
            data.append(chunk)
        }
        return data
    }
}

import CLinux

/// Records the compiler placed in a named section of this executable (`@section("lockstep_previews") @used`), read
/// through the bounds the linker defines for it: how `#Preview`s are found without a registry that would need a
/// static initializer, which Swift does not have.
public enum LinkerSection {
    /// A record: a C function that registers what its expansion declared.
    public typealias Record = @convention(c) () -> Void

    /// Calls every record of the `lockstep_previews` section, in link order; none when the executable has none.
    public static func callPreviewRecords() {
        guard let start = lockstep_previews_start(), let stop = lockstep_previews_stop() else { return }
        let count = (stop - start) / MemoryLayout<Record>.stride
        start.withMemoryRebound(to: Record.self, capacity: count) { records in
            for index in 0..<count { records[index]() }
        }
    }

    /// Every non-generic type of this executable that conforms to the protocol `protocolName` of `module`, in link
    /// order: read from the Swift runtime's conformance records, as Apple's build step reads an extension's
    /// metadata to list its App Intents. A type that only inherits the conformance from a superclass is not listed.
    public static func conformingTypes(to protocolName: String, in module: String) -> [Any.Type] {
        guard let start = lockstep_conformances_start(), let stop = lockstep_conformances_stop() else { return [] }
        var found: [Any.Type] = []
        var record = start
        while record < stop {
            defer { record += MemoryLayout<Int32>.size }
            guard let conformance = SwiftMetadata.relative(record),
                  let proto = SwiftMetadata.indirectable(conformance),
                  SwiftMetadata.name(proto) == protocolName,
                  let parent = SwiftMetadata.indirectable(proto + 4), SwiftMetadata.name(parent) == module,
                  let type = SwiftMetadata.conformingType(conformance) else { continue }
            found.append(type)
        }
        return found
    }
}

/// The few fields of the Swift runtime's metadata records `conformingTypes` reads (the ABI's `TargetProtocolConformanceDescriptor`,
/// `TargetContextDescriptor`, `TargetTypeContextDescriptor`; swift/ABI/Metadata.h), all stable since Swift 5.
private enum SwiftMetadata {
    /// A 32-bit offset from its own address; nil when zero.
    static func relative(_ field: UnsafeRawPointer) -> UnsafeRawPointer? {
        let offset = field.loadUnaligned(as: Int32.self)
        return offset == 0 ? nil : field + Int(offset)
    }

    /// A relative offset whose low bit says it points at a pointer to the target (one in another image) instead.
    static func indirectable(_ field: UnsafeRawPointer) -> UnsafeRawPointer? {
        let offset = field.loadUnaligned(as: Int32.self)
        if offset == 0 { return nil }
        if offset & 1 == 0 { return field + Int(offset) }
        return (field + Int(offset & ~1)).loadUnaligned(as: UnsafeRawPointer?.self)
    }

    /// A context descriptor's name (a module's, a protocol's, a type's): the field after its flags and parent.
    static func name(_ descriptor: UnsafeRawPointer) -> String? {
        relative(descriptor + 8).map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
    }

    /// The type a conformance descriptor is for, when it names a non-generic struct, enum or class by its
    /// descriptor: the metadata its access function returns for a complete request (0).
    static func conformingType(_ conformance: UnsafeRawPointer) -> Any.Type? {
        let flags = (conformance + 12).loadUnaligned(as: UInt32.self)
        let descriptor: UnsafeRawPointer?
        switch (flags >> 3) & 0x7 {  // the type reference kind
        case 0: descriptor = relative(conformance + 4)
        case 1: descriptor = relative(conformance + 4)?.loadUnaligned(as: UnsafeRawPointer?.self)
        default: return nil  // Objective-C class names: none on Linux
        }
        guard let descriptor else { return nil }
        let typeFlags = descriptor.loadUnaligned(as: UInt32.self)
        let kind = typeFlags & 0x1f, isGeneric = typeFlags & 0x80 != 0
        guard (16...18).contains(kind), !isGeneric, let accessor = relative(descriptor + 12) else { return nil }
        // The access function is `swiftcc MetadataResponse (MetadataRequest)`: on x86-64 and arm64 its one word
        // argument and the response's first word (the metadata) sit where a C function's would.
        let access = unsafeBitCast(accessor, to: (@convention(c) (Int) -> UnsafeRawPointer).self)
        return unsafeBitCast(access(0), to: Any.Type.self)
    }
}

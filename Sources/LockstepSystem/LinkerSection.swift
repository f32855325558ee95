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
}

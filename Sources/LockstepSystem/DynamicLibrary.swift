import Glibc

/// A shared library loaded at run time (`dlopen`), for what a process needs only once it does a certain job: the
/// notification service loads FoundationNetworking — and through it libcurl, TLS and some thirty libraries — before
/// its first delivery instead of at start, so it is ready sooner.
public enum DynamicLibrary {
    /// Loads the library `name`, found as the dynamic linker finds the executable's own libraries (its run path, then
    /// the system's folders), with every symbol bound now and visible to every other library (`RTLD_NOW`,
    /// `RTLD_GLOBAL`). The Swift runtime registers a loaded library's type metadata, so a lookup by name (Foundation's
    /// `_typeByName` of FoundationNetworking's content loader) finds its types. The library stays loaded for the
    /// process's life; loading one that is loaded already only counts it again.
    /// - Throws: `SystemError(.load)` with the dynamic linker's reason.
    public static func loadGlobally(_ name: String) throws(SystemError) {
        guard dlopen(name, RTLD_NOW | RTLD_GLOBAL) != nil else {
            throw SystemError(.load(reason: dlerror().map { String(cString: $0) } ?? "the dynamic linker gave no reason"), path: name)
        }
    }
}

import LockstepSystem

/// The simulated device's network as a notification service extension sees it.
///
/// Online (the default), an attachment's `https://` or `http://` URL is fetched for real. Foundation's
/// `Data(contentsOf:)` on Linux fetches any URL that is not a file through FoundationNetworking, which it looks up by
/// name at run time ("The specified URL type isn't supported" when it is not loaded). This module does not link it:
/// FoundationNetworking brings libcurl, TLS and some thirty other libraries, and binding their symbols at start took
/// the service more time than everything else it does before it is ready (<doc:Performance>, up to ready).
/// `loadNetworking()` loads it before the first delivery instead, so `up`'s launch check never pays for it.
///
/// Offline (`LOCKSTEP_OFFLINE=1` in the process's environment; `lockstep up` passes `LOCKSTEP_CHILD_LOCKSTEP_OFFLINE=1`
/// on), every request fails without leaving the machine, and the delivered line says the device is offline.
enum DeviceNetwork {
    static let offlineVariable = "LOCKSTEP_OFFLINE"

    static var isOffline: Bool { ProcessEnvironment.value(offlineVariable) == "1" }

    /// The library Foundation's `Data(contentsOf:)` and `URLSession` need for a URL that is not a file.
    static let networkingLibrary = "libFoundationNetworking.so"

    /// Takes the device offline in this process if the environment says so: call it at the start, before threads.
    static func install() {
        guard isOffline else { return }
        // Every load on Linux goes through libcurl, which honours the proxy variables: a proxy on a port no connection
        // can reach (port 0 of the loopback address) makes every load fail at once, and nothing leaves the machine.
        for name in ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            ProcessEnvironment.set(name, "http://127.0.0.1:0")
        }
        for name in ["no_proxy", "NO_PROXY"] { ProcessEnvironment.set(name, "") }
    }

    /// Loads FoundationNetworking, once, before the first delivery that reaches the service; if it cannot be loaded,
    /// says so in one sentence (the service then runs, and every fetch from the network fails).
    static func loadNetworking() { _ = networkingLoaded }

    private static let networkingLoaded: Bool = {
        do {
            try DynamicLibrary.loadGlobally(networkingLibrary)
            return true
        } catch {
            Standard.error("\(Program.name): \(error) Attachments from the network cannot be fetched.")
            return false
        }
    }()
}

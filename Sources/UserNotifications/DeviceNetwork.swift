import FoundationNetworking
import LockstepSystem

/// The simulated device's network as a notification service extension sees it.
///
/// Online (the default), an attachment's `https://` or `http://` URL is fetched for real: this module links
/// FoundationNetworking, which Foundation's `Data(contentsOf:)` needs on Linux for any URL that is not a file ("The
/// specified URL type isn't supported" otherwise), and re-exports it, so `URLSession` and `URLRequest` need no
/// import of their own, as on a device.
///
/// Offline (`LOCKSTEP_OFFLINE=1` in the process's environment; `lockstep up` passes `LOCKSTEP_CHILD_LOCKSTEP_OFFLINE=1`
/// on), every request fails as on a device without a connection: `URLSession` with `URLError.notConnectedToInternet`
/// ("The Internet connection appears to be offline."), each refusal named in one sentence on stderr; and
/// `Data(contentsOf:)` throws.
enum DeviceNetwork {
    static let offlineVariable = "LOCKSTEP_OFFLINE"

    static var isOffline: Bool { ProcessEnvironment.value(offlineVariable) == "1" }

    /// Takes the device offline in this process if the environment says so: call it at the start, before threads.
    static func install() {
        guard isOffline else { return }
        _ = URLProtocol.registerClass(OfflineURLProtocol.self)
        // Foundation's `Data(contentsOf:)` on Linux loads through a session of its own that registered protocols do
        // not reach; it goes through libcurl, which honours the proxy variables: a proxy on a port no connection can
        // reach (port 0 of the loopback address) makes every such load fail at once, and nothing leaves the machine.
        for name in ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            ProcessEnvironment.set(name, "http://127.0.0.1:0")
        }
        for name in ["no_proxy", "NO_PROXY"] { ProcessEnvironment.set(name, "") }
    }
}

/// Refuses every HTTP(S) request of an offline device, as iOS fails them.
final class OfflineURLProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool {
        ["http", "https"].contains(request.url?.scheme?.lowercased() ?? "")
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        Standard.error("\(Program.name): the simulated device is offline (\(DeviceNetwork.offlineVariable)=1): \(request.url?.absoluteString ?? "a request") was not fetched.")
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: "The Internet connection appears to be offline."]
        if let url = request.url { userInfo[NSURLErrorFailingURLErrorKey] = url }
        client?.urlProtocol(self, didFailWithError: URLError(.notConnectedToInternet, userInfo: userInfo))
    }

    override func stopLoading() {}
}

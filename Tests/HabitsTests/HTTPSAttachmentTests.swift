import Foundation
import LockstepTestSupport
import Testing

/// An attachment fetched over HTTPS (issue 45, item 4), across three processes: `openssl s_server` serves an image over
/// TLS on the loopback address with a certificate made for the test; the Habits notification service (a process of its
/// own) fetches it with `Data(contentsOf:)` through FoundationNetworking and libcurl, as a device's service fetches its
/// attachment. A device trusts a server's certificate only if it chains to a root the device trusts; the service run
/// under `unshare` with the test's certificate added to the system's bundle is a device whose user installed that root
/// and turned it on in Certificate Trust Settings. Without it, the certificate is refused and the notification is shown
/// without the image, with one sentence saying why.
@Suite("UserNotifications: attachments fetched over HTTPS from a loopback server")
struct HTTPSAttachmentTests {
    static let openssl = tool("openssl")
    static let unshare = tool("unshare")
    /// The one file of trusted roots the system's libcurl reads (Debian's and Ubuntu's `ca-certificates`).
    static let systemRoots = "/etc/ssl/certs/ca-certificates.crt"
    static let image = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 4, 5, 6, 7])

    /// The first executable called `name` on PATH, or nil.
    static func tool(_ name: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `openssl s_server -WWW` serving `streak.png` from a folder of its own, with a self-signed certificate for
    /// 127.0.0.1 made at test time; `base` is the URL it listens on, read from its `ACCEPT` line.
    struct TLSServer {
        let server: Child
        let base: String
        let certificate: URL

        init(in root: URL) throws {
            let openssl = try #require(HTTPSAttachmentTests.openssl)
            let served = root.appendingPathComponent("www")
            try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
            try HTTPSAttachmentTests.image.write(to: served.appendingPathComponent("streak.png"))
            certificate = root.appendingPathComponent("cert.pem")
            let key = root.appendingPathComponent("key.pem").path
            let made = try run(openssl, ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                         "-keyout", key, "-out", certificate.path, "-subj", "/CN=127.0.0.1",
                                         "-addext", "subjectAltName=IP:127.0.0.1", "-days", "2"])
            try #require(made.status == 0, "\(made)")
            server = try Child(openssl, ["s_server", "-accept", "127.0.0.1:0", "-cert", certificate.path, "-key", key, "-WWW"],
                               currentDirectory: served.path)
            let accept = try #require(server.waitForLine("ACCEPT 127.0.0.1:"), "\(server.wait(timeout: 5))")
            base = "https://127.0.0.1:\(accept.split(separator: ":").last!)/"
        }

        /// Killed: `s_server` serves until it is (a test process may hold SIGTERM blocked, which its children inherit).
        func stop() {
            server.signal(SIGKILL)
            _ = server.wait(timeout: 10)
        }
    }

    static func payload(_ url: String) -> String {
        #"{"aps": {"alert": {"title": "Habits", "body": "Nice streak!"}, "mutable-content": 1}, "image-url": "\#(url)"}"#
    }

    @Test(.enabled(if: openssl != nil, "needs openssl on PATH, to make the certificate and serve HTTPS (openssl s_server)"),
          .enabled(if: unshare != nil, "needs unshare on PATH (util-linux), to trust the test's certificate in the service's process only"),
          .enabled(if: FileManager.default.fileExists(atPath: systemRoots), "needs the system's trusted roots at \(systemRoots), which libcurl reads"))
    func anImageFromATrustedServerIsAttached() throws {
        let root = TestSupport.temporaryDirectory("https-attachment")
        defer { TestSupport.cleanUp(root) }
        let server = try TLSServer(in: root)
        defer { server.stop() }
        // The system's roots and the test's certificate, bound over the system's file in a mount namespace of the
        // service's own: no other process sees it, and nothing on the machine changes.
        let roots = root.appendingPathComponent("roots.pem")
        try (Data(contentsOf: URL(fileURLWithPath: Self.systemRoots)) + Data(contentsOf: server.certificate)).write(to: roots)
        let groups = root.appendingPathComponent("groups")
        let shown = try run(try #require(Self.unshare),
                            ["--user", "--map-root-user", "--mount", "sh", "-c", #"mount --bind "$1" "$2" && shift 2 && exec "$@""#, "trust",
                             roots.path, Self.systemRoots, TestSupport.executable("lockstep-notification"), "deliver",
                             Self.payload(server.base + "streak.png")],
                            environment: ["LOCKSTEP_GROUPS": groups.path])
        #expect(shown.status == 0, "\(shown)")
        #expect(shown.stdout.hasPrefix("shown: Habits — Nice streak! [attachment "), "\(shown)")
        #expect(shown.stdout.contains("-streak.png] (from the service extension"), "\(shown)")
        #expect(shown.stderr.isEmpty, "\(shown)")
        // The attached file, in the extension's own container, holds the bytes the server sent.
        let name = try #require(shown.stdout.split(separator: "[attachment ").last?.split(separator: "]").first.map(String.init))
        let files = FileManager.default.enumerator(atPath: groups.path)?.compactMap { $0 as? String } ?? []
        let attached = try #require(files.first { $0.hasSuffix("/" + name) }, "\(files)")
        #expect(try Data(contentsOf: groups.appendingPathComponent(attached)) == Self.image)
    }

    @Test(.enabled(if: openssl != nil, "needs openssl on PATH, to make the certificate and serve HTTPS (openssl s_server)"))
    func aServerTheDeviceDoesNotTrustLeavesTheNotificationWithoutItsImageAndSaysWhy() throws {
        let root = TestSupport.temporaryDirectory("https-untrusted")
        defer { TestSupport.cleanUp(root) }
        let server = try TLSServer(in: root)
        defer { server.stop() }
        let url = server.base + "streak.png"
        let shown = try run(TestSupport.executable("lockstep-notification"), ["deliver", Self.payload(url)],
                            environment: ["LOCKSTEP_GROUPS": root.appendingPathComponent("groups").path])
        #expect(shown.status == 0, "\(shown)")
        #expect(shown.stdout == "shown: Habits — Nice streak! (from the service extension, \(Self.milliseconds(shown.stdout)) ms)\n", "\(shown)")
        // One sentence naming the URL and the certificate problem (libcurl's words), not Foundation's "The operation
        // could not be completed".
        let lines = shown.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(shown)")
        #expect(lines.first?.hasPrefix("HabitsNotifications: the image \(url) was not attached: SSL certificate problem: self") == true, "\(shown)")
    }

    /// The milliseconds the delivered line reports (they vary from run to run).
    static func milliseconds(_ line: String) -> String {
        line.split(separator: ", ").last?.split(separator: " ").first.map(String.init) ?? ""
    }
}

#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// A plain-HTTP server on the loopback address, for what a simulated device fetches from "the network" in tests
/// (a notification's attachment): it listens on `127.0.0.1` at a port the kernel picks, answers every `GET` with one
/// body, and tells `onRequest` the request line. It never listens on any other address. Descriptors are `O_CLOEXEC`.
public final class LoopbackServer: @unchecked Sendable {  // @unchecked: the listening descriptor is set once in init.
    public let port: UInt16
    private let listener: FileDescriptor

    /// Binds and listens; `serve` answers.
    public init() throws(SystemError) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError(.open, path: "a loopback socket", errno: .current) }
        listener = FileDescriptor(rawValue: fd)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian  // 127.0.0.1, never another address
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else {
            let error = Errno.current
            listener.close()
            throw SystemError(.open, path: "127.0.0.1 (listening)", errno: error)
        }
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Answers requests one at a time until the process ends: `status` and `body` for every `GET` (with
    /// `contentType`), after telling `onRequest` its request line (`GET /avatar.png HTTP/1.1`).
    public func serve(status: String = "200 OK", body: [UInt8], contentType: String, onRequest: (String) -> Void) -> Never {
        while true {
            guard case .success(let fd) = valueOrErrno({ lockstep_accept_cloexec(listener.rawValue) }) else { continue }
            FileDescriptor(rawValue: fd).closeAfter { client in
                var request: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                // The headers end at an empty line; a GET has no body.
                while !request.ends(with: [13, 10, 13, 10]), request.count < 65_536 {
                    let count = buffer.withUnsafeMutableBytes { read(client.rawValue, $0.baseAddress, $0.count) }
                    if count <= 0 { break }
                    request += buffer[0..<count]
                }
                let line = String(decoding: request.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
                onRequest(line)
                let head = "HTTP/1.1 \(status)\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
                try? client.writeAll(Array(head.utf8) + body, path: "a loopback connection")
            }
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}

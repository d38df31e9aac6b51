import Glibc

/// A port on 127.0.0.1 where every connection is refused, and that no other socket can take while this lives: a TCP
/// socket bound to it and never listening (without `SO_REUSEADDR`, so a server's bind, which sets it, still fails
/// there). A port that was merely free when asked for (`SOCKS5TestProxy.freePort()`) can be taken by a server of
/// another test running at the same time; a client sent there then waits for an answer instead of being refused.
public final class RefusingPort: @unchecked Sendable {
    /// The port (the socket is only read by `deinit`).
    public let port: Int
    private let descriptor: Int32

    public init() throws(RefusingPortError) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RefusingPortError(step: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(descriptor)
            throw RefusingPortError(step: "bind", code: code)
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}

/// Why a `RefusingPort` could not be made: the failing call and its `errno`.
public struct RefusingPortError: Error, Sendable {
    public let step: String
    public let code: Int32
}

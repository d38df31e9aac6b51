import MTProtoTransport
import NIOCore
import NIOEmbedded
import Testing

/// The SOCKS5 client handshake byte for byte (RFC 1928 §3–6, RFC 1929 §2), fed whole and a byte at a time, its
/// failures with their RFC names, random replies that must fail cleanly, and the NIO handler that holds what the
/// transport writes until the tunnel is up.
@Suite struct SOCKS5HandshakeTests {
    typealias Handshake = SOCKS5Handshake

    /// Feeds `bytes` one at a time; returns the first step that is not `.needMore`.
    static func feedSlowly(_ handshake: inout Handshake, _ bytes: [UInt8]) throws -> Handshake.Step {
        for (index, byte) in bytes.enumerated() {
            let step = try handshake.receive([byte])
            if step != .needMore {
                #expect(index == bytes.count - 1, "answered before the last byte")
                return step
            }
        }
        return .needMore
    }

    @Test func noAuthenticationToAnIPv4Address() throws {
        var handshake = try Handshake(host: "149.154.167.50", port: 443, credentials: nil)
        #expect(handshake.start() == [5, 1, 0])
        #expect(try Self.feedSlowly(&handshake, [5, 0]) == .send([5, 1, 0, 1, 149, 154, 167, 50, 0x01, 0xBB]))
        // Success, bound to 10.0.0.1:4321, then the first bytes of the tunnelled protocol.
        let reply: [UInt8] = [5, 0, 0, 1, 10, 0, 0, 1, 0x10, 0xE1]
        #expect(try handshake.receive(reply + [0xEF, 0x01]) == .established(leftover: [0xEF, 0x01]))
    }

    @Test func aDomainAndAnIPv6AddressAreWrittenAsTheirTypes() throws {
        var named = try Handshake(host: "example.org", port: 80, credentials: nil)
        _ = named.start()
        #expect(try named.receive([5, 0]) == .send([5, 1, 0, 3, 11] + Array("example.org".utf8) + [0, 80]))
        var v6 = try Handshake(host: "[2001:db8::1]", port: 8443, credentials: nil)
        _ = v6.start()
        let address: [UInt8] = [0x20, 0x01, 0x0D, 0xB8] + Array(repeating: 0, count: 11) + [1]
        #expect(try v6.receive([5, 0]) == .send([5, 1, 0, 4] + address + [0x20, 0xFB]))
        // A domain in the reply (type 3) is skipped by its length.
        let reply: [UInt8] = [5, 0, 0, 3, 4] + Array("host".utf8) + [0, 1]
        #expect(try Self.feedSlowly(&v6, reply) == .established(leftover: []))
    }

    @Test func usernameAndPasswordWhenTheProxyAsks() throws {
        let credentials = SOCKS5Proxy.Credentials(username: "ann", password: "päss")
        var handshake = try Handshake(host: "127.0.0.1", port: 1443, credentials: credentials)
        #expect(handshake.start() == [5, 2, 0, 2])
        let login: [UInt8] = [1, 3] + Array("ann".utf8) + [5] + Array("päss".utf8)
        #expect(try handshake.receive([5, 2]) == .send(login))
        #expect(try Self.feedSlowly(&handshake, [1, 0]) == .send([5, 1, 0, 1, 127, 0, 0, 1, 0x05, 0xA3]))
        #expect(try handshake.receive([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]) == .established(leftover: []))
        // The same proxy may skip the login when it needs none.
        var skipped = try Handshake(host: "127.0.0.1", port: 1443, credentials: credentials)
        #expect(try skipped.receive([5, 0]) == .send([5, 1, 0, 1, 127, 0, 0, 1, 0x05, 0xA3]))
    }

    @Test func failuresKeepTheirNames() throws {
        func failure(_ credentials: SOCKS5Proxy.Credentials?, _ replies: [[UInt8]]) -> Handshake.Failure? {
            do {
                var handshake = try Handshake(host: "10.1.2.3", port: 443, credentials: credentials)
                for reply in replies { _ = try handshake.receive(reply) }
                return nil
            } catch {
                return error
            }
        }
        let login = SOCKS5Proxy.Credentials(username: "u", password: "p")
        #expect(failure(nil, [[5, 0xFF]]) == .noAcceptableMethod)
        #expect(failure(nil, [[5, 2]]) == .credentialsRequired)
        #expect(failure(login, [[5, 2], [1, 1]]) == .authenticationFailed)
        #expect(failure(nil, [[5, 0], [5, 5, 0, 1, 0, 0, 0, 0, 0, 0]]) == .refused(code: 5))
        #expect(Handshake.Failure.refused(code: 2).description.hasSuffix("connection not allowed by ruleset"))
        #expect(failure(nil, [[4, 0]]) == .malformed("version 4 in the method choice"))
        #expect(failure(nil, [[5, 1]]) == .malformed("method 1, which was not offered"))
        #expect(failure(nil, [[5, 0, 9]]) == .malformed("1 bytes before they were asked for"))
        #expect(failure(nil, [[5, 0], [5, 0, 0, 7, 0]]) == .malformed("address type 7"))
        #expect(throws: Handshake.Failure.self) {
            try Handshake(host: String(repeating: "a", count: 256), port: 443, credentials: nil)
        }
        #expect(throws: Handshake.Failure.self) {
            try Handshake(host: "x", port: 443, credentials: .init(username: "", password: "p"))
        }
        #expect(throws: Handshake.Failure.self) { try Handshake(host: "x", port: 0, credentials: nil) }
    }

    /// Whatever a "proxy" answers, the handshake ends in an answer or a `Failure`, and never holds more than one
    /// reply's worth of bytes.
    @Test func randomRepliesFailCleanly() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            var handshake = try Handshake(
                host: "example.org", port: 443, credentials: .init(username: "u", password: "p"))
            var chunks = 0
            do {
                while chunks < 8 {
                    chunks += 1
                    let count = Int.random(in: 0...12, using: &random)
                    var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
                    // Often a plausible start, so the later phases are reached too.
                    if chunks == 1, Bool.random(using: &random) { bytes = [5, UInt8.random(in: 0...2)] }
                    if case .established = try handshake.receive(bytes) { break }
                }
            } catch {
                #expect(!"\(error)".isEmpty)
            }
        }
    }

    @Test func theHandlerHoldsWritesUntilTheTunnelIsUp() throws {
        let channel = EmbeddedChannel()
        let handler = SOCKS5ClientHandler(
            handshake: try Handshake(host: "1.2.3.4", port: 443, credentials: nil), eventLoop: channel.eventLoop)
        try channel.pipeline.syncOperations.addHandler(handler)
        var established = false
        handler.established.whenSuccess { established = true }
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1080)).wait()
        #expect(try channel.readOutbound(as: ByteBuffer.self).map { Array($0.readableBytesView) } == [5, 1, 0])
        // The transport writes its header at once: it waits.
        let headerWritten = channel.writeAndFlush(channel.allocator.buffer(bytes: [0xEF]))
        var written = false
        headerWritten.whenSuccess { written = true }
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        try channel.writeInbound(channel.allocator.buffer(bytes: [5, 0]))
        #expect(try channel.readOutbound(as: ByteBuffer.self).map { Array($0.readableBytesView) } == [5, 1, 0, 1, 1, 2, 3, 4, 1, 187])
        try channel.writeInbound(channel.allocator.buffer(bytes: [5, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0x7F]))
        #expect(established && written)
        #expect(try channel.readOutbound(as: ByteBuffer.self).map { Array($0.readableBytesView) } == [0xEF])
        #expect(try channel.readInbound(as: ByteBuffer.self).map { Array($0.readableBytesView) } == [0x7F])
        // Gone from the pipeline: what follows passes straight through.
        #expect(throws: (any Error).self) { try channel.pipeline.syncOperations.handler(type: SOCKS5ClientHandler.self) }
        _ = try channel.finish()
    }

    /// A socket that never connected (the proxy is down) tears its pipeline down: the tunnel's future fails, as the
    /// caller waits on it (a promise left unfulfilled also traps in debug builds).
    @Test func aHandlerWhoseSocketNeverConnectedFailsItsFuture() throws {
        let channel = EmbeddedChannel()
        let handler = SOCKS5ClientHandler(
            handshake: try Handshake(host: "1.2.3.4", port: 443, credentials: nil), eventLoop: channel.eventLoop)
        try channel.pipeline.syncOperations.addHandler(handler)
        var failure: (any Error)?
        handler.established.whenFailure { failure = $0 }
        // Closing a channel that never connected reports that it was not open; the pipeline goes all the same.
        _ = try? channel.finish()
        #expect(failure as? ChannelError == .ioOnClosedChannel)
    }

    @Test func theHandlerClosesOnARefusal() throws {
        let channel = EmbeddedChannel()
        let handler = SOCKS5ClientHandler(
            handshake: try Handshake(host: "1.2.3.4", port: 443, credentials: nil), eventLoop: channel.eventLoop)
        try channel.pipeline.syncOperations.addHandler(handler)
        var failure: (any Error)?
        handler.established.whenFailure { failure = $0 }
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1080)).wait()
        #expect(throws: SOCKS5Handshake.Failure.noAcceptableMethod) {
            try channel.writeInbound(channel.allocator.buffer(bytes: [5, 0xFF]))
        }
        #expect(failure as? SOCKS5Handshake.Failure == .noAcceptableMethod)
        #expect(!channel.isActive)
    }
}

import Foundation
import NIOCore
import NIOPosix

/// The floor under a one-at-a-time call: a bare NIO client doing 128-byte round trips over loopback TCP against an
/// echo server in another process (Python, so none of its CPU is ours), driven from a Swift task as our client is
/// (the task hands each write to the event loop and waits for the answer). No TL, no crypto, no session: what is
/// left is the kernel's loopback, epoll and futex wake-ups and the two thread hand-offs, which no client built on an
/// event loop avoids. Its CPU per round trip is the `limit` row of the client-CPU table.
enum LoopbackLimit {
    /// Counts echoed bytes until a whole message is back.
    final class EchoWaiter: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        var missing = 0
        var promise: EventLoopPromise<Void>?

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            missing -= unwrapInboundIn(data).readableBytes
            if missing <= 0, let promise {
                self.promise = nil
                promise.succeed(())
            }
        }
    }

    static let echoServer = """
        import socket
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        print(s.getsockname()[1], flush=True)
        c, _ = s.accept()
        c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        while True:
            d = c.recv(65536)
            if not d:
                break
            c.sendall(d)
        """

    /// CPU (this process, user + system) and wall seconds for `count` round trips; with `frames` above 1, each round
    /// trip writes that many 128-byte frames in one flush (one `writev`) and waits for all of them to come back, and
    /// the cost is per frame (the floor under one call of a batch).
    static func run(
        group: MultiThreadedEventLoopGroup, count: Int, frames: Int = 1
    ) async throws -> ClientCostBench.Cost {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", echoServer]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer { process.terminate() }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw CocoaError(.fileReadCorruptFile)
        }
        let waiter = EchoWaiter()
        let channel = try await ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { $0.pipeline.addHandler(waiter) }
            .connect(host: "127.0.0.1", port: port).get()
        let message = ByteBuffer(repeating: 7, count: 128)
        func roundTrip() async throws {
            try await channel.eventLoop.flatSubmit { () -> EventLoopFuture<Void> in
                let promise = channel.eventLoop.makePromise(of: Void.self)
                waiter.missing = message.readableBytes * frames
                waiter.promise = promise
                for _ in 0..<frames { channel.write(message, promise: nil) }
                channel.flush()
                return promise.futureResult
            }.get()
        }
        for _ in 0..<200 { try await roundTrip() }
        let cost = try await ClientCostBench.measure(items: Double(count * frames)) {
            for _ in 0..<count { try await roundTrip() }
        }
        try await channel.close()
        return cost
    }
}

public import Foundation
public import MTProtoTransport
public import TestVectors

/// An MTProxy no one here wrote — alexbers' mtprotoproxy, which `make deps` installs into the venv — listening on a
/// free port of 127.0.0.1 in front of a tg-server's DCs (`Tests/Fixtures/mtproxy/mtprotoproxy_local.py` points its
/// data-center table at them). It takes each key for all three secret kinds: plain, `dd` and `ee` fake-TLS.
/// Dropping it does not stop it: call `stop()`.
public final class MTProxyTestPeer: @unchecked Sendable {
    public let process: RunningProcess
    public let port: Int

    /// Starts the proxy for `keys` (16 bytes each) in front of `dcPorts` (DC id → tg-server port).
    public init(keys: [[UInt8]], dcPorts: [Int32: Int], tlsDomain: String = "example.com") async throws {
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/mtproxy/mtprotoproxy_local.py")
        var arguments = [script.path, "--port", "0", "--tls-domain", tlsDomain]
        for key in keys { arguments += ["--secret", key.map { String(format: "%02x", $0) }.joined()] }
        for (dc, port) in dcPorts.sorted(by: { $0.key < $1.key }) { arguments += ["--dc", "\(dc)=\(port)"] }
        let process = try ProcessRunner.start(ProcessRunner.venvPython, arguments)
        let ready = await process.waitForOutputOffPool(timeout: 20) {
            String(decoding: $0, as: UTF8.self).contains("\n")
        }
        let output = String(decoding: process.output, as: UTF8.self)
        guard ready, let line = output.split(separator: "\n").first(where: { $0.hasPrefix("ready ") }),
            let port = Int(line.dropFirst("ready ".count))
        else {
            process.send(SIGKILL)
            let result = await process.waitOffPool(timeout: 5)
            throw MTProxyTestPeerError(output: output + result.errorOutput)
        }
        self.process = process
        self.port = port
    }

    /// The proxy as a connection's setting, with `secret`.
    public func proxy(_ secret: MTProxySecret) -> ConnectionProxy {
        .mtproxy(MTProxy(host: "127.0.0.1", port: port, secret: secret))
    }

    /// Kills the proxy and waits for it.
    public func stop() {
        process.send(SIGKILL)
        _ = process.wait(timeout: 10)
    }
}

/// mtprotoproxy did not start.
public struct MTProxyTestPeerError: Error, CustomStringConvertible {
    public let output: String
    public var description: String { "mtprotoproxy did not start: \(output) — run `make deps`" }
}

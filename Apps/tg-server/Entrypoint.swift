import ArgumentParser
import Buffers
import Foundation
import Logging
import MTProtoServer
import NIOCore
import NIOPosix
import ServerAPI

/// `tg-server`: the local MTProto server for development and tests.
@main
struct TGServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tg-server",
        abstract: "A local MTProto 2.0 server: several data centers on 127.0.0.1, real TCP transports.",
        discussion: """
            DC n listens on --port + n - 1 (DC 2, the one clients start with, on --port + 1). The RSA key pair is \
            created in --data-dir on first start and kept there; --print-public-key prints its PKCS#1 PEM and \
            fingerprint (creating it if needed). Stop with SIGINT or SIGTERM.
            """)

    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "DC 1's port; DC n uses port + n - 1. 0 picks free ports.") var port = 10443
    @Option(help: "How many data centers.") var dcs = 3
    @Option(help: "The folder for the server's keys and state.") var dataDir: String
    @Option(help: "An MTProxy secret (32 hex digits, or 34 starting with dd) obfuscated clients may use; repeatable.")
    var secret: [String] = []
    @Flag(help: "Print the server's public key (PKCS#1 PEM) and fingerprint, then exit.") var printPublicKey = false
    @Flag(help: "Log every connection event.") var verbose = false

    func validate() throws {
        guard (1...16).contains(dcs) else { throw ValidationError("--dcs must be between 1 and 16") }
        guard port == 0 || (1...65535).contains(port + dcs - 1) else { throw ValidationError("--port out of range") }
        for s in secret where Self.hexBytes(s).map({ $0.count == 16 || ($0.count == 17 && $0[0] == 0xdd) }) != true {
            throw ValidationError("--secret \(s): expected 32 hex digits, or 34 starting with dd")
        }
    }

    func run() async throws {
        let directory = URL(fileURLWithPath: dataDir)
        if printPublicKey {
            let keys = try ServerKeyStore(directory: directory)
            print(try keys.publicKeyDescription(), terminator: "")
            return
        }
        var logger = Logger(label: "tg-server")
        logger.logLevel = verbose ? .debug : .info
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let configuration = MTProtoServer.Configuration(
            host: host, basePort: port, dataCenterCount: dcs, dataDirectory: directory,
            proxySecrets: secret.compactMap(Self.hexBytes))
        let server = try await MTProtoServer.start(configuration, group: group, logger: logger) { dataCenters in
            ServerAPIHandler(dataCenters: dataCenters)
        }
        let ports = server.dataCenters.map { "dc\($0.id)=\($0.port)" }.joined(separator: " ")
        print("tg-server: ready \(ports)")
        fflush(nil)
        await Self.waitForTerminationSignal()
        print("tg-server: shutting down")
        try await server.close()
        try await group.shutdownGracefully()
    }

    /// Suspends until SIGINT or SIGTERM.
    static func waitForTerminationSignal() async {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let queue = DispatchQueue(label: "tg-server.signals")
            let once = OnceFlag()
            for number in [SIGINT, SIGTERM] {
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler {
                    if once.claim() { continuation.resume() }
                }
                source.resume()
                SignalSources.keep(source)
            }
        }
    }

    static func hexBytes(_ text: String) -> [UInt8]? {
        MemoryBuffer(hexString: text)?.bytes
    }
}

/// True exactly once. `@unchecked Sendable`: the flag is read and written under `lock`.
final class OnceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false

    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if claimed { return false }
        claimed = true
        return true
    }
}

/// Keeps signal sources alive for the life of the process. `@unchecked Sendable`: appended to under `lock`.
final class SignalSources: @unchecked Sendable {
    private static let shared = SignalSources()
    private let lock = NSLock()
    private var sources: [any DispatchSourceSignal] = []

    static func keep(_ source: any DispatchSourceSignal) {
        shared.lock.lock()
        shared.sources.append(source)
        shared.lock.unlock()
    }
}

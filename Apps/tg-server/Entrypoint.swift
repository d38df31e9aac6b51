import ArgumentParser
import Buffers
import CommandLineOutput
import Foundation
import Logging
import MTProtoServer
import NIOCore
import NIOPosix
import SecretFiles
import ServerAPI

/// `tg-server`: the local MTProto server for development and tests.
@main
struct TGServer: AsyncParsableCommand {
    static func main() async { await runAsTool() }

    static let configuration = CommandConfiguration(
        commandName: "tg-server",
        abstract: "A local MTProto 2.0 server: several data centers on 127.0.0.1, real TCP transports.",
        discussion: """
            DC n listens on --port + n - 1 (DC 2, the one clients start with, on --port + 1). The RSA key pair is \
            created in --data-dir on first start and kept there; --print-public-key prints its PKCS#1 PEM and \
            fingerprint (creating it if needed). Stop with SIGINT or SIGTERM.

            Accounts, messages and updates live in --data-dir/server.sqlite (SQLite in WAL mode), encrypted with \
            the key in --db-key-file when one is given. Login codes: Telegram's test numbers 99966XYYYY belong to \
            DC X and their code is X five times (99966 2 1234 → 22222); every other number gets a random 5-digit \
            code (or --fixed-code), which the server logs and writes to --data-dir/codes/<phone digits>.

            \(ToolExitCode.helpText)
            """)

    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "DC 1's port; DC n uses port + n - 1. 0 picks free ports.") var port = 10443
    @Option(help: "How many data centers.") var dcs = 3
    @Option(help: "The folder for the server's keys and state.") var dataDir: String
    @Option(help: "An MTProxy secret (32 hex digits, or 34 starting with dd) obfuscated clients may use; repeatable.")
    var secret: [String] = []
    @Option(help: "Connections open at once, all DCs together; more get transport error -429.")
    var maxConnections = ServerLimits().maximumConnections
    @Option(help: "Connections open at once from one IP address; more get -429.")
    var maxConnectionsPerAddress = ServerLimits().maximumConnectionsPerAddress
    @Option(help: "Seconds a connection may stay silent before it is closed.") var idleTimeout = ServerLimits()
        .idleTimeout
    @Option(help: "Seconds a frame (or a new connection's first bytes) may take to arrive whole.")
    var frameTimeout = ServerLimits().frameTimeout
    @Option(help: "API calls one connection may have unanswered; past this the server stops reading it.")
    var maxCallsInFlight = ServerLimits().maximumCallsInFlight
    @Option(help: "Threads for key exchanges' RSA and DH work (kept off the network threads).")
    var keyExchangeWorkers = ServerLimits().keyExchangeWorkers
    @Option(help: "Threads that run API calls; calls waiting on the database together share one commit.")
    var rpcWorkers = ServerLimits().rpcWorkers
    @Option(
        help: "The login code of every number that is not a test number (99966XYYYY), for scripts; default: random.")
    var fixedCode: String?
    @Option(
        help: """
            Encrypt the database with the key in this file (96 hex digits: 32 key bytes then 16 salt bytes, mode 0600); \
            a missing file is created with a new random key.
            """)
    var dbKeyFile: String?
    @Option(help: "Messages one account may send a second, sustained (more get FLOOD_WAIT_X); 0 turns the limit off.")
    var sendRate = FloodControl.Configuration().messagesPerSecond
    @Option(help: "Messages one account may send at once after a quiet spell.")
    var sendBurst = FloodControl.Configuration().messageBurst
    @Option(
        help: ArgumentHelp(
            "A channel member further behind than N channel updates gets channelDifferenceTooLong (the newest "
                + "messages) from updates.getChannelDifference instead of every update.", valueName: "N"))
    var channelDifferenceGap = ServerBackend.defaultChannelDifferenceGap
    @Option(
        help: """
            For client tests: METHOD=SECONDS (e.g. help.getNearestDc=2) makes a call of METHOD answer FLOOD_WAIT_SECONDS \
            unless it comes at least SECONDS after that key's last flood answer for it; repeatable.
            """)
    var testFloodWait: [String] = []
    @Option(
        help: ArgumentHelp(
            "The most phone contacts one contacts.importContacts imports; the rest come back in retry_contacts.",
            valueName: "N"))
    var contactImportsPerCall = FloodControl.Configuration().contactImportsPerCall
    @Option(
        help: """
            Write each push for a device registered with account.registerDevice as one file in DIR/<token>/ (what APNs \
            would carry: {"p":"<base64url>"}, encrypted with the device's secret); default: no pushes.
            """)
    var pushDir: String?
    @Option(
        help: ArgumentHelp(
            """
            Serve Prometheus metrics (GET /metrics) on this port of --metrics-host; 0 picks a free port, which the ready \
            line names (metrics=P); default: no metrics endpoint.
            """, valueName: "port"))
    var metricsPort: Int?
    @Option(help: ArgumentHelp("The address the metrics endpoint listens on.", valueName: "host")) var metricsHost =
        "127.0.0.1"
    @Option(
        help: ArgumentHelp(
            "How log lines look on standard error: text (swift-log's) or json (one object a line).", valueName: "format"
        ))
    var logFormat = LogFormat.text
    @Option(
        help: ArgumentHelp(
            """
            Write every session's calls, answers and pushes, decoded, as JSON lines in DIR/<auth_key_id>-<session_id>.jsonl \
            (folder 0700, files 0600; byte fields shortened, codes, passwords, secrets and keys redacted); default: no trace.
            """, valueName: "dir"))
    var trace: String?
    @Option(
        help: ArgumentHelp(
            "MiB one session's trace file may reach; past it the file ends with a truncated line.", valueName: "mib"))
    var traceFileLimit = ServerTrace.Limits().bytesPerFile >> 20
    @Option(
        help: ArgumentHelp(
            "MiB all trace files together may reach in one run; past it every file ends as above.", valueName: "mib"))
    var traceTotalLimit = ServerTrace.Limits().totalBytes >> 20
    @Option(
        help: ArgumentHelp(
            """
            Build link previews from pages on HOST[:PORT] (port 80 when none), fetched over plain HTTP only (tg-server \
            has no TLS client); repeatable. Only the exact host and port named are fetched; default: nothing is fetched.
            """, valueName: "host[:port]"))
    var webpageAllow: [String] = []
    @Flag(help: "Print the server's public key (PKCS#1 PEM) and fingerprint, then exit.") var printPublicKey = false
    @Flag(
        help: """
            Print this server's DCs (--host, --port, --dcs) as a signed help.configSimple, the base64 text Telegram \
            publishes for clients that reach none of its addresses, valid for a day; then exit.
            """)
    var printConfigSimple = false
    @Flag(help: "Log every connection event.") var verbose = false

    func validate() throws {
        guard (1...16).contains(dcs) else { throw ValidationError("--dcs must be between 1 and 16") }
        guard port == 0 || (1...65535).contains(port + dcs - 1) else { throw ValidationError("--port out of range") }
        guard maxConnections > 0, maxConnectionsPerAddress > 0, maxCallsInFlight > 0, keyExchangeWorkers > 0,
            rpcWorkers > 0
        else {
            throw ValidationError(
                "--max-connections, --max-connections-per-address, --max-calls-in-flight, "
                    + "--key-exchange-workers and --rpc-workers must be positive")
        }
        guard idleTimeout > 0, frameTimeout > 0 else { throw ValidationError("timeouts must be positive seconds") }
        if let fixedCode, fixedCode.count != 5 || !fixedCode.allSatisfy(\.isASCII) || !fixedCode.allSatisfy(\.isNumber)
        {
            throw ValidationError("--fixed-code must be 5 digits")
        }
        if let metricsPort, !(0...65535).contains(metricsPort) { throw ValidationError("--metrics-port out of range") }
        guard traceFileLimit > 0, traceTotalLimit > 0 else {
            throw ValidationError("--trace-file-limit and --trace-total-limit must be positive MiB")
        }
        guard sendRate >= 0, sendBurst > 0 else {
            throw ValidationError("--send-rate must be 0 or more and --send-burst positive")
        }
        guard channelDifferenceGap > 0 else { throw ValidationError("--channel-difference-gap must be positive") }
        for entry in webpageAllow where WebPageRules.entry(entry) == nil {
            throw ValidationError("--webpage-allow \(entry): not HOST[:PORT]")
        }
        guard (1...ServerBackend.importContactsLimit).contains(contactImportsPerCall) else {
            throw ValidationError("--contact-imports-per-call must be 1…\(ServerBackend.importContactsLimit)")
        }
        _ = try testFloods()
        for s in secret where Self.hexBytes(s).map({ $0.count == 16 || ($0.count == 17 && $0[0] == 0xdd) }) != true {
            throw ValidationError("--secret \(s): expected 32 hex digits, or 34 starting with dd")
        }
    }

    func run() async throws {
        let directory = URL(fileURLWithPath: dataDir)
        if printPublicKey {
            let keys = try Self.openKeys { try ServerKeyStore(directory: directory) }
            print(try keys.publicKeyDescription(), terminator: "")
            return
        }
        if printConfigSimple {
            guard port != 0 else {
                throw ToolError.badInput("--print-config-simple needs fixed ports", remedy: "pass --port P (not 0)")
            }
            let keys = try Self.openKeys { try ServerKeyStore(directory: directory) }
            let ports = Dictionary(uniqueKeysWithValues: (0..<dcs).map { (Int32($0 + 1), port + $0) })
            do {
                print(
                    try SimpleConfigPublisher.blob(
                        host: host, ports: ports, key: keys.rsaKey, now: Date().timeIntervalSince1970))
            } catch {
                throw ToolError.badInput("--print-config-simple: \(error)", remedy: "pass --host as an IPv4 address")
            }
            return
        }
        if logFormat == .json { LoggingSystem.bootstrap { JSONLogHandler(label: $0) } }
        let registry = metricsPort == nil ? nil : MetricsEndpoint.bootstrap()
        var logger = Logger(label: "tg-server")
        logger.logLevel = verbose ? .debug : .info
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        var limits = ServerLimits()
        limits.maximumConnections = maxConnections
        limits.maximumConnectionsPerAddress = maxConnectionsPerAddress
        limits.idleTimeout = idleTimeout
        limits.frameTimeout = frameTimeout
        limits.maximumCallsInFlight = maxCallsInFlight
        limits.keyExchangeWorkers = keyExchangeWorkers
        limits.rpcWorkers = rpcWorkers
        // Each connection is a file descriptor: make room for the cap (up to the hard limit), and say if it is lower.
        let descriptors = FileDescriptorLimit.raise(toAtLeast: maxConnections + 64)
        if descriptors < maxConnections + 64 {
            logger.warning(
                "the file-descriptor limit caps connections below --max-connections",
                metadata: ["limit": "\(descriptors)"])
        }
        var serverTrace: ServerTrace?
        if let trace {
            do {
                serverTrace = try ServerTrace(
                    directory: URL(fileURLWithPath: trace),
                    limits: .init(bytesPerFile: traceFileLimit << 20, totalBytes: traceTotalLimit << 20))
            } catch {
                throw ToolError.badInput(
                    "--trace \(trace): \(error)", remedy: "pass a folder tg-server may create or own")
            }
            logger.notice("tracing every session", metadata: ["folder": "\(trace)"])
        }
        let configuration = MTProtoServer.Configuration(
            host: host, basePort: port, dataCenterCount: dcs, dataDirectory: directory,
            proxySecrets: secret.compactMap(Self.hexBytes), limits: limits, trace: serverTrace)
        let bootstrap = try Self.openBackend(
            .init(
                directory: directory, databaseKeyFile: dbKeyFile,
                loginCodes: .init(folder: directory.appendingPathComponent("codes"), fixedCode: fixedCode),
                flood: .init(
                    messagesPerSecond: sendRate, messageBurst: sendBurst, testFloods: try testFloods(),
                    contactImportsPerCall: contactImportsPerCall),
                stickerSet: .bestEffort, pushDirectory: pushDir.map { URL(fileURLWithPath: $0) },
                channelDifferenceGap: channelDifferenceGap,
                webPages: WebPageRules(allowed: Set(webpageAllow.compactMap(WebPageRules.entry))), logger: logger))
        let server: MTProtoServer
        do {
            server = try await bootstrap.startServer(configuration, group: group)
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            try? await group.shutdownGracefully()
            throw ToolError(
                "cannot listen on \(host), ports \(port)…\(port + dcs - 1): address already in use",
                remedy: "stop the other server or pass --port 0 for free ports")
        } catch {
            try? await group.shutdownGracefully()
            throw Self.toolError(error, directory: directory)
        }
        var ports = server.dataCenters.map { "dc\($0.id)=\($0.port)" }.joined(separator: " ")
        var metricsChannel: (any Channel)?
        if let registry, let metricsPort {
            do {
                let channel = try await MetricsEndpoint.start(
                    host: metricsHost, port: metricsPort, registry: registry, group: group)
                metricsChannel = channel
                ports += " metrics=\(channel.localAddress?.port ?? metricsPort)"
            } catch {
                try? await server.close()
                try? await group.shutdownGracefully()
                throw ToolError(
                    "cannot serve metrics on \(metricsHost):\(metricsPort): \(error)",
                    remedy: "pick another --metrics-port, or 0 for a free one")
            }
        }
        print("tg-server: ready \(ports)")
        fflush(nil)
        await Self.waitForTerminationSignal()
        print("tg-server: shutting down")
        try? await metricsChannel?.close()
        try await server.close()
        try await group.shutdownGracefully()
    }

    /// `--test-flood-wait` as method → seconds.
    func testFloods() throws -> [String: Int] {
        var floods: [String: Int] = [:]
        for entry in testFloodWait {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[0].contains("."), let seconds = Int(parts[1]), (1...86_400).contains(seconds)
            else {
                throw ValidationError(
                    "--test-flood-wait \(entry): expected METHOD=SECONDS, e.g. help.getNearestDc=2 (1…86400 s)")
            }
            floods[parts[0]] = seconds
        }
        return floods
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

    /// Opens (creating) the data folder's database, with the key file's key when one is given, and its files.
    static func openBackend(_ configuration: BackendBootstrap.Configuration) throws -> BackendBootstrap {
        do {
            return try BackendBootstrap(configuration)
        } catch .database(let error) {
            throw ToolError.badInput("\(error)", remedy: "check --data-dir and --db-key-file")
        } catch .files(let error) {
            throw ToolError.badInput("\(error)", remedy: "check the permissions of --data-dir")
        }
    }

    /// Opens the key store, saying which file is wrong and what to do when it cannot.
    static func openKeys(_ body: () throws -> ServerKeyStore) throws -> ServerKeyStore {
        do {
            return try body()
        } catch {
            throw toolError(error, directory: nil)
        }
    }

    /// A data-folder problem as a tool error (exit 2): the key file or folder, and what to do.
    static func toolError(_ error: any Error, directory: URL?) -> ToolError {
        switch error {
        case let error as ServerError:
            return ToolError.badInput("\(error)")
        case let error as SecretFileError:
            return ToolError.badInput("\(error)", remedy: "check the permissions of --data-dir, or use another folder")
        default:
            return ToolError("\(error)")
        }
    }

    static func hexBytes(_ text: String) -> [UInt8]? {
        MemoryBuffer(hexString: text)?.bytes
    }
}

/// The process's open-file limit.
enum FileDescriptorLimit {
    /// Raises the soft limit to `wanted` (or the hard limit, if lower); returns the soft limit now in force.
    static func raise(toAtLeast wanted: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        let target = min(rlim_t(wanted), limit.rlim_max)
        if limit.rlim_cur < target {
            limit.rlim_cur = target
            _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Int(limit.rlim_cur)
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

public import MTProtoTransport

/// Every bound the server keeps on what clients can make it hold, each a named default that tg-server's flags can
/// change. Nothing a client sends grows without one of these.
public struct ServerLimits: Sendable, Equatable {
    /// Connections open at once, over every data center; the next gets transport error −429 and is closed.
    public var maximumConnections = 10_000
    /// Connections open at once from one IP address; the next gets −429.
    public var maximumConnectionsPerAddress = 256
    /// Seconds a connection may stay silent (no whole packet) before it is closed; `ping_delay_disconnect` sets a
    /// shorter time for the connection that sends it.
    public var idleTimeout: Double = 300
    /// Seconds a connection may take to name its transport, and each frame to arrive whole after its first byte.
    public var frameTimeout: Double = 20
    /// Sessions kept over every key; past this, the least recently used is forgotten.
    public var maximumSessions = 100_000
    /// Sessions kept per auth key; past this, that key's least recently used is forgotten.
    public var maximumSessionsPerKey = 64
    /// Seconds a session may go unused before it is forgotten.
    public var sessionLifetime: Double = 6 * 3600
    /// Seconds a new auth key may go without a single accepted encrypted message before it is deleted.
    public var unconfirmedKeyLifetime: Double = 600
    /// Temporary auth keys kept in memory; past this, the one expiring soonest is forgotten.
    public var maximumTemporaryKeys = 100_000
    /// API calls one connection may have in flight; past this the server stops reading that connection until one
    /// is answered. With answers of at most a message each, this bounds what one connection can be owed.
    public var maximumCallsInFlight = 32
    /// Threads that run API calls (`RPCHandler.handle` may block on the database). Calls that wait on the database
    /// together are written in one transaction, so more threads let more calls share a commit.
    public var rpcWorkers = 32
    /// Key exchanges whose expensive steps (RSA decryption, DH exponentiation) run at once, off the event loops.
    public var keyExchangeWorkers = 2
    /// Key-exchange steps waiting for a worker; past this, the connection gets −429 and is closed.
    public var maximumQueuedKeyExchanges = 256
    /// Bytes buffered for a connection that does not read, before the server stops reading it (and so stops
    /// producing answers for it).
    public var writeBufferHighWaterMark = 1 << 20
    /// Seconds between sweeps that forget idle sessions, unused keys and expired temporary keys.
    public var sweepInterval: Double = 60
    /// MTProto over HTTP on the same ports: header and body sizes, how long a POST may be held, how many at once.
    public var http = HTTPTransportLimits()

    public init() {}
}

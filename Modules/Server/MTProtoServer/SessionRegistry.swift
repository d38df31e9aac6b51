import Foundation
public import MTProtoCore

/// Every session the server has seen, by auth key and session id, and the salt each key's exchange produced.
///
/// `@unchecked Sendable`: both tables are read and written under `lock`; sessions guard their own state.
public final class SessionRegistry: @unchecked Sendable {
    private struct Key: Hashable {
        let authKeyId: Int64
        let sessionId: Int64
    }

    private let lock = NSLock()
    private var sessions: [Key: ServerSession] = [:]
    private var handshakeSalts: [Int64: Int64] = [:]
    private let schedule: SaltSchedule

    public init(schedule: SaltSchedule) {
        self.schedule = schedule
    }

    /// Records the first salt of a freshly created key.
    public func keyCreated(_ key: AuthKey, salt: Int64) {
        lock.lock()
        handshakeSalts[key.id] = salt
        lock.unlock()
    }

    /// The session `sessionId` of `key`, created on first use.
    public func session(for key: AuthKey, sessionId: Int64, dcId: Int32) -> ServerSession {
        lock.lock()
        defer { lock.unlock() }
        let id = Key(authKeyId: key.id, sessionId: sessionId)
        if let session = sessions[id] { return session }
        let session = ServerSession(
            authKey: key, sessionId: sessionId, dcId: dcId, schedule: schedule, handshakeSalt: handshakeSalts[key.id])
        sessions[id] = session
        return session
    }

    /// How many sessions exist.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return sessions.count
    }
}

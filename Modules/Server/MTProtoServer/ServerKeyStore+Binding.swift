public import Foundation
import MTProtoCore

/// Temporary keys bound to permanent ones (core.telegram.org "Perfect Forward Secrecy", method
/// `auth.bindTempAuthKey`): once bound, calls made with the temporary key act for the permanent key's authorization,
/// and the server's pushes for that authorization reach sessions on the temporary key. Each permanent key has at
/// most one temporary key bound at a time (binding a new one replaces the old binding); a binding ends with its
/// temporary key.
extension ServerKeyStore {
    /// Why `auth.bindTempAuthKey` was refused, with the answer Telegram gives.
    public enum BindingError: Error, Equatable, Sendable {
        /// The call was not made with a (live) temporary key: 400 `TEMP_AUTH_KEY_EMPTY`.
        case notTemporary
        /// The encrypted message did not open with the permanent key or does not match the call: 400
        /// `ENCRYPTED_MESSAGE_INVALID`.
        case encryptedMessageInvalid
        /// The temporary key is bound to another permanent key: 400 `TEMP_AUTH_KEY_ALREADY_BOUND`.
        case alreadyBound

        /// Telegram's name for the error.
        public var message: String {
            switch self {
            case .notTemporary: "TEMP_AUTH_KEY_EMPTY"
            case .encryptedMessageInvalid: "ENCRYPTED_MESSAGE_INVALID"
            case .alreadyBound: "TEMP_AUTH_KEY_ALREADY_BOUND"
            }
        }
    }

    /// What one `auth.bindTempAuthKey` call carries, and where it came from.
    public struct BindingRequest: Sendable {
        public var temporaryKeyId: Int64
        public var sessionId: Int64
        /// The msg_id of the call (the encrypted message must carry the same).
        public var messageId: Int64
        public var permanentKeyId: Int64
        public var nonce: Int64
        public var expiresAt: Int32
        public var encryptedMessage: [UInt8]

        public init(
            temporaryKeyId: Int64, sessionId: Int64, messageId: Int64, permanentKeyId: Int64, nonce: Int64,
            expiresAt: Int32,
            encryptedMessage: [UInt8]
        ) {
            self.temporaryKeyId = temporaryKeyId
            self.sessionId = sessionId
            self.messageId = messageId
            self.permanentKeyId = permanentKeyId
            self.nonce = nonce
            self.expiresAt = expiresAt
            self.encryptedMessage = encryptedMessage
        }
    }

    /// Checks and records a binding: the call came on a live temporary key, the permanent key exists, the encrypted
    /// message opens with it (`TemporaryKeyBinding.open`) and names this temporary key, permanent key, session,
    /// nonce and expiry, and the expiry is still ahead. The temporary key then lives until the earlier of its own
    /// expiry and the binding's.
    public func bind(_ request: BindingRequest, now: Double = Date().timeIntervalSince1970) throws(BindingError) {
        lock.lock()
        defer { lock.unlock() }
        guard let temporaryKey = temporary[request.temporaryKeyId], temporaryKey.expiresAt > now else {
            throw .notTemporary
        }
        guard let permanent = permanentKey(id: request.permanentKeyId) else { throw .encryptedMessageInvalid }
        guard
            let inner = try? TemporaryKeyBinding.open(
                request.encryptedMessage, permanentKey: permanent, messageId: request.messageId),
            inner
                == TemporaryKeyBinding.Inner(
                    nonce: request.nonce, temporaryKeyId: request.temporaryKeyId,
                    permanentKeyId: request.permanentKeyId,
                    temporarySessionId: request.sessionId, expiresAt: request.expiresAt),
            Double(request.expiresAt) > now
        else { throw .encryptedMessageInvalid }
        if let current = bindings[request.temporaryKeyId], current != request.permanentKeyId { throw .alreadyBound }
        if let previous = boundTemporaryKeys[request.permanentKeyId], previous != request.temporaryKeyId {
            bindings[previous] = nil
        }
        bindings[request.temporaryKeyId] = request.permanentKeyId
        boundTemporaryKeys[request.permanentKeyId] = request.temporaryKeyId
        temporary[request.temporaryKeyId] = (temporaryKey.key, min(temporaryKey.expiresAt, Double(request.expiresAt)))
    }

    /// How calls made with key `id` are attributed: `.permanent` for a permanent key, `.bound(permanentId)` for a
    /// temporary key bound to one, `.unbound` for a temporary key not bound (yet).
    public func attribution(of id: Int64) -> KeyAttribution {
        lock.lock()
        defer { lock.unlock() }
        guard temporary[id] != nil else { return .permanent }
        return bindings[id].map { .bound(permanentKeyId: $0) } ?? .unbound
    }

    /// See `attribution(of:)`.
    public enum KeyAttribution: Equatable, Sendable {
        case permanent
        case bound(permanentKeyId: Int64)
        case unbound

        /// The key id calls with this key act for, given the key's own id.
        public func effectiveKeyId(_ own: Int64) -> Int64 {
            if case .bound(let permanent) = self { return permanent }
            return own
        }
    }

    /// Ends the binding of a temporary key that is going away. Call with `lock` held.
    func unbind(temporaryKeyId id: Int64) {
        guard let permanent = bindings.removeValue(forKey: id) else { return }
        if boundTemporaryKeys[permanent] == id { boundTemporaryKeys[permanent] = nil }
    }
}

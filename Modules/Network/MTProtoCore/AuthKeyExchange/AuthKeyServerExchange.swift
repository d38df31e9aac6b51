public import CryptoUtils
import MTProtoApi
import TLRuntime

/// The server's side of the auth-key exchange (MTProto §Creating an Authorization Key), as a pure state machine
/// for one connection: each `receive` takes a client request and gives the answer to send, and finally the key.
///
/// It accepts `req_pq` and `req_pq_multi`, `p_q_inner_data` in all four variants, encrypted with RSA_PAD or with
/// the legacy `SHA1(data) ‖ data ‖ random` scheme (Telethon uses the latter), and checks nonces, p and q, the SHA-1
/// of the client's DH data and the range of g_b. A temporary key (`p_q_inner_data_temp*`) comes out with its
/// expiry. A key whose auth_key_id is already taken is never handed out: the client gets `dh_gen_retry` and
/// answers with a new g_b and `retry_id` set to the colliding key's auth_key_aux_hash (at most `maximumRetries`
/// times).
public struct AuthKeyServerExchange: Sendable {
    /// What the server does next.
    public enum Step: Equatable, Sendable {
        /// Send this body in an unencrypted message.
        case send([UInt8])
        /// Send this body (dh_gen_ok), then use the key.
        case completed(AuthKeyExchangeResult, send: [UInt8])
    }

    private enum State: Sendable {
        case waitingForPQ
        case waitingForDHParams(nonce: TLInt128, serverNonce: TLInt128, p: UInt64, q: UInt64)
        case waitingForClientDH(ClientDHWait)
        case finished
    }

    /// What the last step needs: the handshake so far, the server's secret, and the retry state.
    private struct ClientDHWait: Sendable {
        let nonce: TLInt128
        let serverNonce: TLInt128
        let newNonce: [UInt8]
        let a: [UInt8]
        /// `expires_in` of a temporary key's inner data.
        let expiresIn: Int32?
        var retries = 0
        /// auth_key_aux_hash of the key refused for a collision: the retry_id the client must send.
        var expectedRetryId: Int64 = 0
    }

    /// At most this many dh_gen_retry rounds for colliding auth_key_ids.
    public static let maximumRetries = 5

    private let keys: [RSAPrivateKey]
    private let random: @Sendable (Int) -> [UInt8]
    private let dhPool: DHPairPool?
    private let isKeyIdTaken: @Sendable (Int64) -> Bool
    private var state: State = .waitingForPQ

    /// A server holding `keys`; `random` supplies every random byte. With `dhPool` (pairs of `DHGroup`), the exchange
    /// takes its (a, g_a) from the pool (each pair once) and computes one inline only when the pool is empty.
    /// `isKeyIdTaken` says whether an auth_key_id is already in use (the key store's answer).
    public init(
        keys: [RSAPrivateKey], dhPool: DHPairPool? = nil,
        random: @escaping @Sendable (Int) -> [UInt8] = SecureRandom.bytes,
        isKeyIdTaken: @escaping @Sendable (Int64) -> Bool = { _ in false }
    ) {
        self.keys = keys
        self.dhPool = dhPool
        self.random = random
        self.isKeyIdTaken = isKeyIdTaken
    }

    /// Whether a request body is the first message of an exchange (req_pq or req_pq_multi).
    public static func isExchangeStart(_ body: [UInt8]) -> Bool {
        guard body.count >= 4 else { return false }
        let id = UInt32(body[0]) | UInt32(body[1]) << 8 | UInt32(body[2]) << 16 | UInt32(body[3]) << 24
        return id == 0xbe7e_8ef1 || id == 0x6046_9778
    }

    /// Takes a client request at local time `now` and gives the answer.
    public mutating func receive(_ body: [UInt8], now: Double) throws(AuthKeyExchangeError) -> Step {
        var reader = TLReader(body)
        let id: UInt32
        do { id = try reader.readUInt32() } catch { throw .decoding(error) }
        do {
            switch (state, id) {
            case (.waitingForPQ, 0xbe7e_8ef1):
                return answerPQ(nonce: try MTProto.functions.reqPqMulti.parseFields(&reader).nonce)
            case (.waitingForPQ, 0x6046_9778):
                return answerPQ(nonce: try MTProto.functions.reqPq.parseFields(&reader).nonce)
            case (.waitingForDHParams(let nonce, let serverNonce, let p, let q), 0xd712_e4be):
                let request = try MTProto.functions.reqDHParams.parseFields(&reader)
                return try answerDHParams(request, nonce: nonce, serverNonce: serverNonce, p: p, q: q, now: now)
            case (.waitingForClientDH(let wait), 0xf504_5f1f):
                let request = try MTProto.functions.setClientDHParams.parseFields(&reader)
                return try answerClientDH(request, wait, now: now)
            default:
                throw AuthKeyExchangeError.unexpectedMessage(String(id, radix: 16))
            }
        } catch let error as AuthKeyExchangeError {
            throw error
        } catch let error as TLDecodingError {
            throw .decoding(error)
        } catch {
            throw .unexpectedMessage("\(error)")
        }
    }

    // Step 2: resPQ with a fresh server_nonce and a pq of two 31-bit primes.
    private mutating func answerPQ(nonce: TLInt128) -> Step {
        let serverNonce = TLInt128(bytes: random(16))!
        let (p, q) = Self.primePair(random: random)
        state = .waitingForDHParams(nonce: nonce, serverNonce: serverNonce, p: p, q: q)
        let answer = MTProto.ResPQ.resPQ(
            .init(
                nonce: nonce, serverNonce: serverNonce, pq: bigEndianMinimal(p * q),
                serverPublicKeyFingerprints: keys.map { Int64(bitPattern: $0.publicKey.fingerprint) }))
        return .send(answer.serialized())
    }

    // Step 5: decrypt p_q_inner_data (RSA_PAD or legacy), answer server_DH_params_ok.
    private mutating func answerDHParams(
        _ request: MTProto.functions.reqDHParams, nonce: TLInt128, serverNonce: TLInt128, p: UInt64, q: UInt64,
        now: Double
    ) throws(AuthKeyExchangeError) -> Step {
        guard request.nonce == nonce else { throw .nonceMismatch }
        guard request.serverNonce == serverNonce else { throw .serverNonceMismatch }
        guard uint64(bigEndian: request.p) == p, uint64(bigEndian: request.q) == q else { throw .pqMismatch }
        guard
            let key = keys.first(where: { Int64(bitPattern: $0.publicKey.fingerprint) == request.publicKeyFingerprint })
        else { throw .unknownFingerprint([request.publicKeyFingerprint]) }
        let inner = try decryptInnerData(request.encryptedData, key: key)
        let fields: (pq: [UInt8], p: [UInt8], q: [UInt8], nonce: TLInt128, serverNonce: TLInt128, newNonce: TLInt256)
        var expiresIn: Int32?
        switch inner {
        case .pQInnerData(let v): fields = (v.pq, v.p, v.q, v.nonce, v.serverNonce, v.newNonce)
        case .pQInnerDataDc(let v): fields = (v.pq, v.p, v.q, v.nonce, v.serverNonce, v.newNonce)
        case .pQInnerDataTemp(let v):
            fields = (v.pq, v.p, v.q, v.nonce, v.serverNonce, v.newNonce)
            expiresIn = v.expiresIn
        case .pQInnerDataTempDc(let v):
            fields = (v.pq, v.p, v.q, v.nonce, v.serverNonce, v.newNonce)
            expiresIn = v.expiresIn
        }
        if let expiresIn, expiresIn <= 0 { throw .unexpectedMessage("temporary key with expires_in \(expiresIn)") }
        guard fields.nonce == nonce else { throw .nonceMismatch }
        guard fields.serverNonce == serverNonce else { throw .serverNonceMismatch }
        guard uint64(bigEndian: fields.pq) == p * q, uint64(bigEndian: fields.p) == p, uint64(bigEndian: fields.q) == q
        else { throw .pqMismatch }
        let newNonce = fields.newNonce.bytes
        let pair: DHPair
        do {
            if let pooled = dhPool?.take() {
                pair = pooled
            } else {
                pair = try DHPair.generate(g: DHGroup.generator, prime: DHGroup.prime, random: random)
            }
            // Checked again here whatever its source (security guidelines: the range of g_a).
            try DiffieHellman.checkPublicValue(pair.publicValue, prime: DHGroup.prime)
        } catch let error as CryptoError {
            throw .crypto(error)
        } catch let error as DiffieHellman.Failure {
            throw .dh(error)
        } catch {
            throw .unexpectedMessage("\(error)")
        }
        let (a, gA) = (pair.secret, pair.publicValue)
        let serverTime = Int32(clamping: Int64(now.rounded(.down)))
        let answer = MTProto.ServerDHInnerData.serverDHInnerData(
            .init(
                nonce: nonce, serverNonce: serverNonce, g: DHGroup.generator, dhPrime: DHGroup.prime, gA: gA,
                serverTime: serverTime))
        let encrypted = try HandshakeCrypto.sealInner(
            answer.serialized(), newNonce: newNonce, serverNonce: serverNonce, random: random)
        state = .waitingForClientDH(
            ClientDHWait(nonce: nonce, serverNonce: serverNonce, newNonce: newNonce, a: a, expiresIn: expiresIn))
        return .send(
            MTProto.ServerDHParams.serverDHParamsOk(
                .init(nonce: nonce, serverNonce: serverNonce, encryptedAnswer: encrypted)
            ).serialized())
    }

    /// RSA_PAD first; when its hash does not check, the legacy scheme, whose SHA-1 covers exactly the inner data.
    /// One RSA decryption serves both schemes.
    private func decryptInnerData(
        _ encrypted: [UInt8], key: RSAPrivateKey
    ) throws(AuthKeyExchangeError) -> MTProto.PQInnerData {
        var block: [UInt8]
        do { block = try key.decryptRaw(encrypted) } catch { throw .crypto(error) }
        if block.count == 256, let padded = try? RSAPad.unpad(block) {
            var reader = TLReader(padded)
            if let inner = try? MTProto.PQInnerData.parse(&reader) { return inner }
        }
        // The legacy block is 255 bytes: as a number it may come back with leading zero bytes, or without some.
        while block.count > 255, block.first == 0 { block.removeFirst() }
        guard block.count <= 255 else { throw .answerHashMismatch }
        let full = [UInt8](repeating: 0, count: 255 - block.count) + block
        return try parseWithHash(full, trailingLimit: 255) { (r: inout TLReader) throws(TLDecodingError) in
            try MTProto.PQInnerData.parse(&r)
        }
    }

    // Steps 6–7 (and 9): set_client_DH_params → check → dh_gen_ok with new_nonce_hash1, or dh_gen_retry with
    // new_nonce_hash2 when the auth_key_id collides with a key in use.
    private mutating func answerClientDH(
        _ request: MTProto.functions.setClientDHParams, _ wait: ClientDHWait, now: Double
    ) throws(AuthKeyExchangeError) -> Step {
        var wait = wait
        let (nonce, serverNonce, newNonce) = (wait.nonce, wait.serverNonce, wait.newNonce)
        guard request.nonce == nonce else { throw .nonceMismatch }
        guard request.serverNonce == serverNonce else { throw .serverNonceMismatch }
        let innerData = try HandshakeCrypto.openInner(
            request.encryptedData, newNonce: newNonce, serverNonce: serverNonce
        ) {
            (r: inout TLReader) throws(TLDecodingError) in try MTProto.ClientDHInnerData.parse(&r)
        }
        guard case .clientDHInnerData(let inner) = innerData else { throw .unexpectedMessage("client_DH_inner_data") }
        guard inner.nonce == nonce else { throw .nonceMismatch }
        guard inner.serverNonce == serverNonce else { throw .serverNonceMismatch }
        // retry_id: 0 the first time, then the auth_key_aux_hash of the key this server refused.
        guard inner.retryId == wait.expectedRetryId else {
            throw .unexpectedMessage("retry_id \(inner.retryId), expected \(wait.expectedRetryId)")
        }
        do { try DiffieHellman.checkPublicValue(inner.gB, prime: DHGroup.prime) } catch { throw .dh(error) }
        let authKey = try HandshakeCrypto.authKey(peerValue: inner.gB, secret: wait.a, prime: DHGroup.prime)
        let key = AuthKey(bytes: authKey)!
        if isKeyIdTaken(key.id) {
            guard wait.retries < Self.maximumRetries else { throw .tooManyRetries }
            wait.retries += 1
            wait.expectedRetryId = MTProtoKeyDerivation.authKeyAuxHash(authKey).littleEndianInt64
            state = .waitingForClientDH(wait)
            let hash = MTProtoKeyDerivation.newNonceHash(newNonce: newNonce, authKey: authKey, number: 2)
            let retry = MTProto.SetClientDHParamsAnswer.dhGenRetry(
                .init(nonce: nonce, serverNonce: serverNonce, newNonceHash2: TLInt128(bytes: hash)!))
            return .send(retry.serialized())
        }
        state = .finished
        let hash = MTProtoKeyDerivation.newNonceHash(newNonce: newNonce, authKey: authKey, number: 1)
        let salt = MTProtoKeyDerivation.initialServerSalt(newNonce: newNonce, serverNonce: serverNonce.bytes)
        let ok = MTProto.SetClientDHParamsAnswer.dhGenOk(
            .init(nonce: nonce, serverNonce: serverNonce, newNonceHash1: TLInt128(bytes: hash)!))
        return .completed(
            AuthKeyExchangeResult(
                authKey: key, serverSalt: salt.littleEndianInt64, timeOffset: 0,
                expiresAt: wait.expiresIn.map { now + Double($0) }),
            send: ok.serialized())
    }

    /// Two distinct primes of 31 bits, smaller first, whose product fits 63 bits as the protocol requires.
    static func primePair(random: (Int) -> [UInt8]) -> (UInt64, UInt64) {
        func prime() -> UInt64 {
            while true {
                let bytes = random(4)
                var candidate =
                    UInt64(bytes[0]) | UInt64(bytes[1]) << 8 | UInt64(bytes[2]) << 16 | UInt64(bytes[3]) << 24
                candidate = (candidate & 0x3fff_ffff) | 0x4000_0001  // 31 bits, odd
                if isPrime(candidate) { return candidate }
            }
        }
        var p = prime()
        var q = prime()
        while p == q { q = prime() }
        if p > q { swap(&p, &q) }
        return (p, q)
    }

    /// Trial division: enough for 31-bit numbers (at most ~23,000 divisions).
    static func isPrime(_ n: UInt64) -> Bool {
        if n < 4 { return n >= 2 }
        if n % 2 == 0 { return false }
        var d: UInt64 = 3
        while d * d <= n {
            if n % d == 0 { return false }
            d += 2
        }
        return true
    }
}

extension AuthKeyServerExchange: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Nothing of the handshake: its state holds new_nonce, the DH secret and the key being made.
    public var description: String { "AuthKeyServerExchange(<in progress>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

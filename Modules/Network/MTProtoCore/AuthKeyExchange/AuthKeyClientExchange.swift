public import CryptoUtils
import MTProtoApi
import TLRuntime

/// The client's side of the auth-key exchange (MTProto §Creating an Authorization Key), as a pure state machine:
/// `start()` gives the first request, each `receive` takes the server's answer and gives the next request or the
/// result. The caller wraps bodies in unencrypted messages and does the I/O.
///
/// It uses `req_pq_multi`, `p_q_inner_data_dc` (or `p_q_inner_data_temp_dc` for a temporary key) encrypted with RSA_PAD, and performs every check of the security
/// guidelines: nonces on every answer, pq below 2⁶³ and split with bounded work, the SHA-1 of the encrypted answer,
/// dh_prime a safe 2048-bit prime, g's conditions, the ranges of g_a and g_b, new_nonce_hash1 (2, 3), and the
/// new_nonce_hash of `server_DH_params_fail`. Hashes are compared in constant time.
public struct AuthKeyClientExchange {
    /// What the client does next.
    public enum Step: Equatable {
        /// Send this body in an unencrypted message.
        case send([UInt8])
        /// Done: use this key.
        case completed(AuthKeyExchangeResult)
    }

    private enum State {
        case idle
        case waitingForResPQ
        case waitingForDHParams(serverNonce: TLInt128, newNonce: [UInt8])
        case waitingForDHGen(
            serverNonce: TLInt128, newNonce: [UInt8], authKey: [UInt8], timeOffset: Double,
            retries: Int, gA: [UInt8], g: Int32, prime: [UInt8])
        case finished
    }

    private let publicKeys: [RSAPublicKey]
    private let dcId: Int32
    private let random: (Int) -> [UInt8]
    private let dhPools: ((_ prime: [UInt8], _ g: Int32) -> DHPairPool?)?
    private let nonce: TLInt128
    /// For a temporary key, its lifetime in seconds (`p_q_inner_data_temp_dc`'s expires_in).
    private let temporaryLifetime: Int32?
    /// When the temporary key being made expires, by the local clock (set once the server's DH parameters arrive).
    private var expiresAt: Double?
    private var state: State = .idle
    /// At most this many dh_gen_retry rounds.
    public static let maximumRetries = 5

    /// A client that trusts `publicKeys`, creating a key for data center `dcId` (negative for test DCs, +10000 for
    /// media, as `p_q_inner_data_dc` defines). `random` supplies every random byte (tests inject a seeded one).
    /// `dhPools`, asked only after the server's group passed every check, may give a pool of precomputed (b, g_b)
    /// for that group (`verifiedGroupPool` does); without one, or when it is empty, b and g_b are computed inline.
    /// With `temporaryLifetime` (seconds), the key is a temporary one (`p_q_inner_data_temp_dc`, core.telegram.org
    /// "Perfect Forward Secrecy") that the server forgets after that long; the result carries its expiry.
    public init(
        publicKeys: [RSAPublicKey], dcId: Int32, random: @escaping (Int) -> [UInt8] = SecureRandom.bytes,
        dhPools: ((_ prime: [UInt8], _ g: Int32) -> DHPairPool?)? = nil, temporaryLifetime: Int32? = nil
    ) {
        self.temporaryLifetime = temporaryLifetime
        self.publicKeys = publicKeys
        self.dcId = dcId
        self.random = random
        self.dhPools = dhPools
        self.nonce = TLInt128(bytes: random(16))!
    }

    /// A shared pool of precomputed (b, g_b) for a group this process has already verified in full (one pair kept
    /// ready, refilled in the background), or nil for a group not verified yet. Pass it as `dhPools`.
    public static func verifiedGroupPool(prime: [UInt8], g: Int32) -> DHPairPool? {
        VerifiedDHGroups.pool(prime: prime, g: g)
    }

    /// Step 1: `req_pq_multi` with a fresh nonce.
    public mutating func start() -> [UInt8] {
        state = .waitingForResPQ
        return MTProto.functions.reqPqMulti(nonce: nonce).serialized()
    }

    /// Takes the server's answer at local time `now` and says what to do next.
    public mutating func receive(_ body: [UInt8], now: Double) throws(AuthKeyExchangeError) -> Step {
        switch state {
        case .waitingForResPQ:
            return try receiveResPQ(body)
        case .waitingForDHParams(let serverNonce, let newNonce):
            return try receiveDHParams(body, serverNonce: serverNonce, newNonce: newNonce, now: now)
        case .waitingForDHGen(
            let serverNonce, let newNonce, let authKey, let timeOffset, let retries, let gA, let g, let prime):
            return try receiveDHGen(
                body, serverNonce: serverNonce, newNonce: newNonce, authKey: authKey, timeOffset: timeOffset,
                retries: retries, gA: gA, g: g, prime: prime)
        case .idle, .finished:
            throw .unexpectedMessage("no exchange in progress")
        }
    }

    // Steps 2–4: resPQ → factorize pq → req_DH_params with RSA_PAD(p_q_inner_data_dc).
    private mutating func receiveResPQ(_ body: [UInt8]) throws(AuthKeyExchangeError) -> Step {
        let answer: MTProto.ResPQ
        do { answer = try MTProto.ResPQ(tlBytes: body) } catch { throw .decoding(error) }
        guard case .resPQ(let res) = answer else { throw .unexpectedMessage("resPQ") }
        guard res.nonce == nonce else { throw .nonceMismatch }
        guard
            let key = publicKeys.first(where: {
                res.serverPublicKeyFingerprints.contains(Int64(bitPattern: $0.fingerprint))
            })
        else { throw .unknownFingerprint(res.serverPublicKeyFingerprints) }
        // §Creating an Authorization Key, step 2: pq is a product of two primes below 2³², so below 2⁶³; anything
        // larger is forged, and the factorization's work is bounded whatever pq is.
        guard let pq = uint64(bigEndian: res.pq), pq < 1 << 63, let (p, q) = PQFactorization.factorize(pq) else {
            throw .pqNotFactorable
        }
        let newNonce = random(32)
        let (smaller, larger) = (bigEndianMinimal(min(p, q)), bigEndianMinimal(max(p, q)))
        let inner: MTProto.PQInnerData =
            if let temporaryLifetime {
                .pQInnerDataTempDc(
                    .init(
                        pq: res.pq, p: smaller, q: larger, nonce: nonce, serverNonce: res.serverNonce,
                        newNonce: TLInt256(bytes: newNonce)!, dc: dcId, expiresIn: temporaryLifetime))
            } else {
                .pQInnerDataDc(
                    .init(
                        pq: res.pq, p: smaller, q: larger, nonce: nonce, serverNonce: res.serverNonce,
                        newNonce: TLInt256(bytes: newNonce)!, dc: dcId))
            }
        let encrypted: [UInt8]
        do { encrypted = try RSAPad.encrypt(inner.serialized(), key: key, random: random) } catch {
            throw .crypto(error)
        }
        state = .waitingForDHParams(serverNonce: res.serverNonce, newNonce: newNonce)
        return .send(
            MTProto.functions.reqDHParams(
                nonce: nonce, serverNonce: res.serverNonce, p: bigEndianMinimal(min(p, q)),
                q: bigEndianMinimal(max(p, q)),
                publicKeyFingerprint: Int64(bitPattern: key.fingerprint), encryptedData: encrypted
            ).serialized())
    }

    // Steps 5–6: server_DH_params_ok → decrypt and check → set_client_DH_params.
    private mutating func receiveDHParams(
        _ body: [UInt8], serverNonce: TLInt128, newNonce: [UInt8], now: Double
    ) throws(AuthKeyExchangeError) -> Step {
        let answer: MTProto.ServerDHParams
        do { answer = try MTProto.ServerDHParams(tlBytes: body) } catch { throw .decoding(error) }
        let ok: MTProto.ServerDHParams.Cons_server_DH_params_ok
        switch answer {
        case .serverDHParamsFail(let fail):
            guard fail.nonce == nonce, fail.serverNonce == serverNonce else { throw .nonceMismatch }
            // The refusal proves it saw new_nonce: new_nonce_hash is the 128 lower-order bits of SHA1(new_nonce).
            guard ConstantTime.equals(fail.newNonceHash.bytes, Digest.sha1(newNonce).suffix(16)) else {
                throw .newNonceHashMismatch
            }
            throw .refusedByServer
        case .serverDHParamsOk(let value):
            ok = value
        }
        guard ok.nonce == nonce else { throw .nonceMismatch }
        guard ok.serverNonce == serverNonce else { throw .serverNonceMismatch }
        expiresAt = temporaryLifetime.map { now + Double($0) }
        let innerData = try HandshakeCrypto.openInner(ok.encryptedAnswer, newNonce: newNonce, serverNonce: serverNonce)
        {
            (r: inout TLReader) throws(TLDecodingError) in try MTProto.ServerDHInnerData.parse(&r)
        }
        guard case .serverDHInnerData(let inner) = innerData else { throw .unexpectedMessage("server_DH_inner_data") }
        guard inner.nonce == nonce else { throw .nonceMismatch }
        guard inner.serverNonce == serverNonce else { throw .serverNonceMismatch }
        do {
            try VerifiedDHGroups.check(prime: inner.dhPrime, g: inner.g)
            try DiffieHellman.checkPublicValue(inner.gA, prime: inner.dhPrime)
        } catch {
            throw .dh(error)
        }
        let timeOffset = Double(inner.serverTime) - now
        return try sendClientDHParams(
            serverNonce: serverNonce, newNonce: newNonce, gA: inner.gA, g: inner.g, prime: inner.dhPrime,
            timeOffset: timeOffset, retryId: 0, retries: 0)
    }

    private mutating func sendClientDHParams(
        serverNonce: TLInt128, newNonce: [UInt8], gA: [UInt8], g: Int32, prime: [UInt8], timeOffset: Double,
        retryId: Int64, retries: Int
    ) throws(AuthKeyExchangeError) -> Step {
        var b: [UInt8] = []
        var gB: [UInt8] = []
        do {
            if let pair = dhPools?(prime, g)?.take() {
                // A precomputed pair of this (verified) group, handed out once; its range is checked again.
                (b, gB) = (pair.secret, pair.publicValue)
                try DiffieHellman.checkPublicValue(gB, prime: prime)
            } else {
                // Draw b until g_b passes the same range check the server will apply.
                for attempt in 0..<16 {
                    b = random(256)
                    gB = try DiffieHellman.publicValue(g: g, secret: b, prime: prime)
                    if (try? DiffieHellman.checkPublicValue(gB, prime: prime)) != nil { break }
                    if attempt == 15 { throw AuthKeyExchangeError.dh(.valueOutOfRange) }
                }
            }
        } catch let error as AuthKeyExchangeError {
            throw error
        } catch let error as CryptoError {
            throw .crypto(error)
        } catch {
            throw .dh(.valueOutOfRange)
        }
        let authKey = try HandshakeCrypto.authKey(peerValue: gA, secret: b, prime: prime)
        let inner = MTProto.ClientDHInnerData.clientDHInnerData(
            .init(nonce: nonce, serverNonce: serverNonce, retryId: retryId, gB: gB))
        let encrypted = try HandshakeCrypto.sealInner(
            inner.serialized(), newNonce: newNonce, serverNonce: serverNonce, random: random)
        state = .waitingForDHGen(
            serverNonce: serverNonce, newNonce: newNonce, authKey: authKey, timeOffset: timeOffset, retries: retries,
            gA: gA, g: g, prime: prime)
        return .send(
            MTProto.functions.setClientDHParams(nonce: nonce, serverNonce: serverNonce, encryptedData: encrypted)
                .serialized())
    }

    // Step 7 (and 9): dh_gen_ok / dh_gen_retry / dh_gen_fail, each proven by its new_nonce_hash.
    private mutating func receiveDHGen(
        _ body: [UInt8], serverNonce: TLInt128, newNonce: [UInt8], authKey: [UInt8], timeOffset: Double, retries: Int,
        gA: [UInt8], g: Int32, prime: [UInt8]
    ) throws(AuthKeyExchangeError) -> Step {
        let answer: MTProto.SetClientDHParamsAnswer
        do { answer = try MTProto.SetClientDHParamsAnswer(tlBytes: body) } catch { throw .decoding(error) }
        func check(_ n: TLInt128, _ s: TLInt128, _ hash: TLInt128, _ number: UInt8) throws(AuthKeyExchangeError) {
            guard n == nonce else { throw .nonceMismatch }
            guard s == serverNonce else { throw .serverNonceMismatch }
            let expected = MTProtoKeyDerivation.newNonceHash(newNonce: newNonce, authKey: authKey, number: number)
            guard ConstantTime.equals(hash.bytes, expected) else { throw .newNonceHashMismatch }
        }
        switch answer {
        case .dhGenOk(let ok):
            try check(ok.nonce, ok.serverNonce, ok.newNonceHash1, 1)
            state = .finished
            let salt = MTProtoKeyDerivation.initialServerSalt(newNonce: newNonce, serverNonce: serverNonce.bytes)
            return .completed(
                AuthKeyExchangeResult(
                    authKey: AuthKey(bytes: authKey)!, serverSalt: salt.littleEndianInt64, timeOffset: timeOffset,
                    expiresAt: expiresAt))
        case .dhGenRetry(let retry):
            try check(retry.nonce, retry.serverNonce, retry.newNonceHash2, 2)
            guard retries < Self.maximumRetries else { throw .tooManyRetries }
            return try sendClientDHParams(
                serverNonce: serverNonce, newNonce: newNonce, gA: gA, g: g, prime: prime, timeOffset: timeOffset,
                retryId: MTProtoKeyDerivation.authKeyAuxHash(authKey).littleEndianInt64, retries: retries + 1)
        case .dhGenFail(let fail):
            try check(fail.nonce, fail.serverNonce, fail.newNonceHash3, 3)
            throw .refusedByServer
        }
    }
}

extension AuthKeyClientExchange: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Nothing of the handshake: its state holds new_nonce, the DH secret and the key being made.
    public var description: String { "AuthKeyClientExchange(<in progress>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

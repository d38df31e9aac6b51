import CryptoUtils
import Foundation
import MTProtoApi
@testable import MTProtoCore
import TLRuntime
import Testing

/// The client and server exchanges run against each other in memory, and against forged answers.
@Suite struct AuthKeyExchangeTests {
    static let serverKey = try! RSAPrivateKey.generate(bits: 2048)
    static let now: Double = 1_800_000_000

    /// Runs a whole exchange; returns both results.
    static func exchange(
        client: inout AuthKeyClientExchange, server: inout AuthKeyServerExchange
    ) throws -> (AuthKeyExchangeResult, AuthKeyExchangeResult) {
        var request = client.start()
        for _ in 0..<6 {
            switch try server.receive(request, now: now + 5) {
            case .send(let answer):
                guard case .send(let next) = try client.receive(answer, now: now) else {
                    Issue.record("client finished before the server")
                    throw AuthKeyExchangeError.unexpectedMessage("early")
                }
                request = next
            case .completed(let serverResult, let answer):
                guard case .completed(let clientResult) = try client.receive(answer, now: now) else {
                    throw AuthKeyExchangeError.unexpectedMessage("client did not finish")
                }
                return (clientResult, serverResult)
            }
        }
        throw AuthKeyExchangeError.unexpectedMessage("too many rounds")
    }

    /// The body a `.send` step carries.
    static func sent(_ step: AuthKeyServerExchange.Step) -> [UInt8]? {
        if case .send(let body) = step { return body }
        return nil
    }

    static func sent(_ step: AuthKeyClientExchange.Step) -> [UInt8]? {
        if case .send(let body) = step { return body }
        return nil
    }

    @Test func clientAndServerAgreeOnKeyAndSalt() throws {
        var client = AuthKeyClientExchange(publicKeys: [Self.serverKey.publicKey], dcId: 2)
        var server = AuthKeyServerExchange(keys: [Self.serverKey])
        let (ours, theirs) = try Self.exchange(client: &client, server: &server)
        #expect(ours.authKey == theirs.authKey)
        #expect(ours.authKey.bytes.count == 256)
        #expect(ours.serverSalt == theirs.serverSalt)
        #expect(ours.timeOffset == 5)  // the server's clock ran 5 s ahead
    }

    @Test func serverAcceptsTheLegacyEncryptionTelethonUses() throws {
        var server = AuthKeyServerExchange(keys: [Self.serverKey])
        let nonce = TLInt128(bytes: SecureRandom.bytes(16))!
        guard case .send(let answer) = try server.receive(MTProto.functions.reqPq(nonce: nonce).serialized(), now: Self.now),
            case .resPQ(let res) = try MTProto.ResPQ(tlBytes: answer)
        else { throw AuthKeyExchangeError.unexpectedMessage("resPQ") }
        let pq = uint64(bigEndian: res.pq)!
        let (p, q) = PQFactorization.factorize(pq)!
        let inner = MTProto.PQInnerData.pQInnerData(
            .init(pq: res.pq, p: bigEndianMinimal(p), q: bigEndianMinimal(q), nonce: nonce, serverNonce: res.serverNonce,
                  newNonce: TLInt256(bytes: SecureRandom.bytes(32))!))
        let encrypted = try RSAPad.encryptLegacy(inner.serialized(), key: Self.serverKey.publicKey)
        let request = MTProto.functions.reqDHParams(
            nonce: nonce, serverNonce: res.serverNonce, p: bigEndianMinimal(p), q: bigEndianMinimal(q),
            publicKeyFingerprint: Int64(bitPattern: Self.serverKey.publicKey.fingerprint), encryptedData: encrypted)
        guard case .send(let dhAnswer) = try server.receive(request.serialized(), now: Self.now) else {
            throw AuthKeyExchangeError.unexpectedMessage("server_DH_params")
        }
        guard case .serverDHParamsOk = try MTProto.ServerDHParams(tlBytes: dhAnswer) else {
            throw AuthKeyExchangeError.unexpectedMessage("server_DH_params_ok")
        }
    }

    @Test func aClientThatDoesNotTrustTheKeyStops() throws {
        let other = try RSAPrivateKey.generate(bits: 2048)
        var client = AuthKeyClientExchange(publicKeys: [other.publicKey], dcId: 2)
        var server = AuthKeyServerExchange(keys: [Self.serverKey])
        let answer = try #require(Self.sent(try server.receive(client.start(), now: Self.now)))
        #expect(throws: AuthKeyExchangeError.unknownFingerprint([Int64(bitPattern: Self.serverKey.publicKey.fingerprint)])) {
            try client.receive(answer, now: Self.now)
        }
    }

    @Test func forgedNoncesAndAnswersAreRefused() throws {
        var client = AuthKeyClientExchange(publicKeys: [Self.serverKey.publicKey], dcId: 2)
        var server = AuthKeyServerExchange(keys: [Self.serverKey])
        var answer = try #require(Self.sent(try server.receive(client.start(), now: Self.now)))
        // resPQ with the nonce changed.
        var forged = answer
        forged[4] ^= 1
        var copy = client
        #expect(throws: AuthKeyExchangeError.nonceMismatch) { try copy.receive(forged, now: Self.now) }
        let dhRequest = try #require(Self.sent(try client.receive(answer, now: Self.now)))
        let dhAnswer = try #require(Self.sent(try server.receive(dhRequest, now: Self.now)))
        // server_DH_params_ok whose encrypted answer lost a bit: the SHA-1 check catches it.
        answer = dhAnswer
        answer[answer.count - 20] ^= 0x10
        copy = client
        #expect(throws: AuthKeyExchangeError.answerHashMismatch) { try copy.receive(answer, now: Self.now) }
        // The same answer replayed out of order is refused by the server's state machine.
        #expect(throws: AuthKeyExchangeError.self) { try server.receive(dhRequest, now: Self.now) }
    }

    @Test func serverRefusesWrongFactorsAndUnknownFingerprints() throws {
        var server = AuthKeyServerExchange(keys: [Self.serverKey])
        let nonce = TLInt128(bytes: SecureRandom.bytes(16))!
        let answer = try #require(Self.sent(try server.receive(MTProto.functions.reqPqMulti(nonce: nonce).serialized(), now: Self.now)))
        guard case .resPQ(let res) = try MTProto.ResPQ(tlBytes: answer) else { throw AuthKeyExchangeError.unexpectedMessage("resPQ") }
        let wrong = MTProto.functions.reqDHParams(
            nonce: nonce, serverNonce: res.serverNonce, p: [3], q: [5],
            publicKeyFingerprint: Int64(bitPattern: Self.serverKey.publicKey.fingerprint), encryptedData: [1, 2, 3])
        var copy = server
        #expect(throws: AuthKeyExchangeError.pqMismatch) { try copy.receive(wrong.serialized(), now: Self.now) }
        let (p, q) = PQFactorization.factorize(uint64(bigEndian: res.pq)!)!
        let unknown = MTProto.functions.reqDHParams(
            nonce: nonce, serverNonce: res.serverNonce, p: bigEndianMinimal(p), q: bigEndianMinimal(q),
            publicKeyFingerprint: 42, encryptedData: [1, 2, 3])
        #expect(throws: AuthKeyExchangeError.unknownFingerprint([42])) { try server.receive(unknown.serialized(), now: Self.now) }
    }

    @Test func primePairsAreDistinctPrimesFittingSixtyThreeBits() {
        for _ in 0..<20 {
            let (p, q) = AuthKeyServerExchange.primePair(random: SecureRandom.bytes)
            #expect(p < q && AuthKeyServerExchange.isPrime(p) && AuthKeyServerExchange.isPrime(q))
            #expect(p.multipliedReportingOverflow(by: q).overflow == false && p * q < 1 << 63)
            #expect(PQFactorization.factorize(p * q).map { [$0.p, $0.q].sorted() } == [p, q])
        }
    }

    /// A forged pq: at or above 2⁶³ it is refused before any work, below it the work is bounded.
    @Test func forgedPQIsRefusedWithBoundedWork() throws {
        for pq in [UInt64(1) << 63, UInt64.max] {
            var client = AuthKeyClientExchange(publicKeys: [Self.serverKey.publicKey], dcId: 2)
            var start = Self.reader(client.start())
            let request = try MTProto.functions.reqPqMulti.parseFields(&start)
            let forged = MTProto.ResPQ.resPQ(
                .init(nonce: request.nonce, serverNonce: TLInt128(bytes: [UInt8](repeating: 1, count: 16))!, pq: bigEndianMinimal(pq),
                      serverPublicKeyFingerprints: [Int64(bitPattern: Self.serverKey.publicKey.fingerprint)]))
            #expect(throws: AuthKeyExchangeError.pqNotFactorable) { try client.receive(forged.serialized(), now: Self.now) }
        }
        // A 62-bit prime times 2 is even (trivial); a prime near 2^63 has no factor: the search stops at its budget.
        var budget: UInt64 = 1 << 20
        #expect(PQFactorization.factorize(9_223_372_036_854_775_783, budget: &budget) == nil)  // the largest prime < 2^63
        #expect(budget == 0, "the search spent its whole budget and stopped")
        budget = PQFactorization.defaultMaximumSteps
        #expect(PQFactorization.factorize(1_724_114_033_281_923_457, budget: &budget) != nil)  // the spec's example
        #expect(budget > PQFactorization.defaultMaximumSteps / 2, "a genuine pq splits well inside the budget")
    }

    static func reader(_ bytes: [UInt8]) -> TLReader {
        var reader = TLReader(bytes)
        _ = try? reader.readUInt32()
        return reader
    }

    /// server_DH_params_fail must prove it saw new_nonce: the 128 low bits of SHA1(new_nonce).
    @Test func serverDHParamsFailIsCheckedBeforeItIsBelieved() throws {
        var client = AuthKeyClientExchange(publicKeys: [Self.serverKey.publicKey], dcId: 2)
        var server = AuthKeyServerExchange(keys: [Self.serverKey])
        let res = try #require(Self.sent(try server.receive(client.start(), now: Self.now)))
        let dhRequest = try #require(Self.sent(try client.receive(res, now: Self.now)))
        var requestReader = Self.reader(dhRequest)
        let parsed = try MTProto.functions.reqDHParams.parseFields(&requestReader)
        // The new_nonce the client drew, read back as the server reads it.
        let newNonce = try Self.newNonce(of: parsed)
        let forged = MTProto.ServerDHParams.serverDHParamsFail(
            .init(nonce: parsed.nonce, serverNonce: parsed.serverNonce, newNonceHash: TLInt128(bytes: [UInt8](repeating: 9, count: 16))!))
        var copy = client
        #expect(throws: AuthKeyExchangeError.newNonceHashMismatch) { try copy.receive(forged.serialized(), now: Self.now) }
        let genuine = MTProto.ServerDHParams.serverDHParamsFail(
            .init(nonce: parsed.nonce, serverNonce: parsed.serverNonce, newNonceHash: TLInt128(bytes: Array(Digest.sha1(newNonce).suffix(16)))!))
        #expect(throws: AuthKeyExchangeError.refusedByServer) { try client.receive(genuine.serialized(), now: Self.now) }
    }

    /// The new_nonce inside a req_DH_params, decrypted with the server's key (RSA_PAD).
    static func newNonce(of request: MTProto.functions.reqDHParams) throws -> [UInt8] {
        let padded = try RSAPad.decrypt(request.encryptedData, key: serverKey)
        var reader = TLReader(padded)
        guard case .pQInnerDataDc(let inner) = try MTProto.PQInnerData.parse(&reader) else {
            throw AuthKeyExchangeError.unexpectedMessage("p_q_inner_data_dc")
        }
        return inner.newNonce.bytes
    }

    /// A key whose auth_key_id is taken is never handed out: dh_gen_retry, and the client's retry makes a new key.
    @Test func aCollidingKeyIdGetsDhGenRetry() throws {
        let taken = LockedSet()
        var client = AuthKeyClientExchange(publicKeys: [Self.serverKey.publicKey], dcId: 2)
        var server = AuthKeyServerExchange(keys: [Self.serverKey], isKeyIdTaken: { id in
            // Every first key of this exchange collides; the retry's key is free.
            taken.insertIfNew(id)
        })
        var request = client.start()
        var rounds = 0
        var retried = false
        var result: (AuthKeyExchangeResult, AuthKeyExchangeResult)?
        while result == nil, rounds < 8 {
            rounds += 1
            switch try server.receive(request, now: Self.now) {
            case .send(let answer):
                if case .dhGenRetry? = try? MTProto.SetClientDHParamsAnswer(tlBytes: answer) { retried = true }
                request = try #require(Self.sent(try client.receive(answer, now: Self.now)))
            case .completed(let serverResult, let answer):
                guard case .completed(let clientResult) = try client.receive(answer, now: Self.now) else {
                    throw AuthKeyExchangeError.unexpectedMessage("client did not finish")
                }
                result = (clientResult, serverResult)
            }
        }
        let (ours, theirs) = try #require(result)
        #expect(retried)
        #expect(ours.authKey == theirs.authKey)
        #expect(taken.count == 2, "the first key was refused, the second accepted")
    }

    /// p_q_inner_data_temp_dc: the key comes out with its expiry.
    @Test func temporaryKeysCarryTheirExpiry() throws {
        var server = AuthKeyServerExchange(keys: [Self.serverKey])
        let nonce = TLInt128(bytes: SecureRandom.bytes(16))!
        let answer = try #require(Self.sent(try server.receive(MTProto.functions.reqPqMulti(nonce: nonce).serialized(), now: Self.now)))
        guard case .resPQ(let res) = try MTProto.ResPQ(tlBytes: answer) else { throw AuthKeyExchangeError.unexpectedMessage("resPQ") }
        let (p, q) = try #require(PQFactorization.factorize(uint64(bigEndian: res.pq)!))
        let newNonce = SecureRandom.bytes(32)
        let inner = MTProto.PQInnerData.pQInnerDataTempDc(
            .init(pq: res.pq, p: bigEndianMinimal(p), q: bigEndianMinimal(q), nonce: nonce, serverNonce: res.serverNonce,
                  newNonce: TLInt256(bytes: newNonce)!, dc: 2, expiresIn: 3600))
        let request = MTProto.functions.reqDHParams(
            nonce: nonce, serverNonce: res.serverNonce, p: bigEndianMinimal(p), q: bigEndianMinimal(q),
            publicKeyFingerprint: Int64(bitPattern: Self.serverKey.publicKey.fingerprint),
            encryptedData: try RSAPad.encrypt(inner.serialized(), key: Self.serverKey.publicKey))
        let dhAnswer = try #require(Self.sent(try server.receive(request.serialized(), now: Self.now)))
        // Finish the exchange as a client would, with the same new_nonce.
        guard case .serverDHParamsOk(let ok) = try MTProto.ServerDHParams(tlBytes: dhAnswer) else {
            throw AuthKeyExchangeError.unexpectedMessage("server_DH_params_ok")
        }
        let (tmpKey, tmpIV) = MTProtoKeyDerivation.temporaryAESKeyIV(newNonce: newNonce, serverNonce: res.serverNonce.bytes)
        let plain = try AESIGE.decrypt(ok.encryptedAnswer, key: tmpKey, iv: tmpIV)
        var reader = TLReader(Array(plain[20...]))
        guard case .serverDHInnerData(let dh) = try MTProto.ServerDHInnerData.parse(&reader) else {
            throw AuthKeyExchangeError.unexpectedMessage("server_DH_inner_data")
        }
        let b = SecureRandom.bytes(256)
        let gB = try DiffieHellman.publicValue(g: dh.g, secret: b, prime: dh.dhPrime)
        let clientInner = MTProto.ClientDHInnerData.clientDHInnerData(.init(nonce: nonce, serverNonce: res.serverNonce, retryId: 0, gB: gB))
        let body = Digest.sha1(clientInner.serialized()) + clientInner.serialized()
        let paddedBody = body + SecureRandom.bytes((16 - body.count % 16) % 16)
        let set = MTProto.functions.setClientDHParams(
            nonce: nonce, serverNonce: res.serverNonce, encryptedData: try AESIGE.encrypt(paddedBody, key: tmpKey, iv: tmpIV))
        guard case .completed(let result, _) = try server.receive(set.serialized(), now: Self.now) else {
            throw AuthKeyExchangeError.unexpectedMessage("dh_gen_ok")
        }
        #expect(result.expiresAt == Self.now + 3600)
    }
}

/// A set behind a lock: `insertIfNew` says whether the id was already there (a collision) and records it.
final class LockedSet: @unchecked Sendable {
    private let lock = NSLock()
    private var ids = Set<Int64>()
    private var first = true

    /// The first id ever asked about counts as taken; every later one is new.
    func insertIfNew(_ id: Int64) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        ids.insert(id)
        defer { first = false }
        return first
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return ids.count
    }
}

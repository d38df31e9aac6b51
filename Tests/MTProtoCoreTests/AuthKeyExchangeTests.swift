import CryptoUtils
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
        guard case .send(let answer) = try server.receive(client.start(), now: Self.now) else { return }
        #expect(throws: AuthKeyExchangeError.unknownFingerprint([Int64(bitPattern: Self.serverKey.publicKey.fingerprint)])) {
            try client.receive(answer, now: Self.now)
        }
    }

    @Test func forgedNoncesAndAnswersAreRefused() throws {
        var client = AuthKeyClientExchange(publicKeys: [Self.serverKey.publicKey], dcId: 2)
        var server = AuthKeyServerExchange(keys: [Self.serverKey])
        guard case .send(var answer) = try server.receive(client.start(), now: Self.now) else { return }
        // resPQ with the nonce changed.
        var forged = answer
        forged[4] ^= 1
        var copy = client
        #expect(throws: AuthKeyExchangeError.nonceMismatch) { try copy.receive(forged, now: Self.now) }
        guard case .send(let dhRequest) = try client.receive(answer, now: Self.now) else { return }
        guard case .send(let dhAnswer) = try server.receive(dhRequest, now: Self.now) else { return }
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
        guard case .send(let answer) = try server.receive(MTProto.functions.reqPqMulti(nonce: nonce).serialized(), now: Self.now),
            case .resPQ(let res) = try MTProto.ResPQ(tlBytes: answer)
        else { return }
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
}

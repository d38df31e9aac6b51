import CryptoUtils
import Foundation
import MTProtoApi
import TLRuntime
import TestVectors
import Testing

/// The worked example of core.telegram.org/mtproto/samples-auth_key, recomputed step by step with our TL types and
/// crypto (Tests/Fixtures/vectors/mtproto_samples_auth_key.json).
@Suite struct AuthKeySampleTests {
    let sample: [String: Any]
    init() throws { sample = try Fixtures.json("mtproto_samples_auth_key.json") }

    func bytes(_ key: String) -> [UInt8] { hex(sample[key] as! String) }
    func int128(_ key: String) -> TLInt128 { TLInt128(bytes: bytes(key))! }

    /// The body of an unencrypted message: auth_key_id (8), msg_id (8), length (4), then the payload.
    func body(_ key: String) -> [UInt8] { Array(bytes(key)[20...]) }

    @Test func step1RequestPQ() {
        let call = MTProto.functions.reqPqMulti(nonce: int128("nonce"))
        #expect(call.serialized() == body("req_pq_multi_payload"))
        #expect(Array(bytes("req_pq_multi_payload")[0..<8]) == [UInt8](repeating: 0, count: 8))
    }

    @Test func step2ResPQAndFactorization() throws {
        let answer = try MTProto.ResPQ(tlBytes: body("resPQ_payload"))
        guard case .resPQ(let res) = answer else { Issue.record("not resPQ"); return }
        #expect(res.nonce == int128("nonce"))
        #expect(res.serverNonce == int128("server_nonce"))
        #expect(res.pq == bytes("pq_bytes"))
        let fingerprints = (sample["server_public_key_fingerprints_le_bytes"] as! [String]).map {
            Int64(littleEndian: hex($0).withUnsafeBytes { $0.loadUnaligned(as: Int64.self) })
        }
        #expect(res.serverPublicKeyFingerprints == fingerprints)
        let pq = res.pq.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(pq == (sample["pq"] as! NSNumber).uint64Value)
        let factors = try #require(PQFactorization.factorize(pq))
        #expect(factors.p == (sample["p"] as! NSNumber).uint64Value)
        #expect(factors.q == (sample["q"] as! NSNumber).uint64Value)
    }

    @Test func step3InnerDataAndPadding() throws {
        let p = BigNum.bytes((sample["p"] as! NSNumber).uint64Value)
        let q = BigNum.bytes((sample["q"] as! NSNumber).uint64Value)
        let inner = MTProto.PQInnerData.pQInnerDataDc(
            .init(
                pq: bytes("pq_bytes"), p: p, q: q, nonce: int128("nonce"), serverNonce: int128("server_nonce"),
                newNonce: TLInt256(bytes: bytes("new_nonce"))!, dc: 2))
        #expect(inner.serialized() == bytes("p_q_inner_data_dc"))
        // RSA_PAD pads the data to 192 bytes with random bytes; the page's padding has exactly the missing length.
        #expect(inner.serialized().count + bytes("rsa_pad_random_padding_bytes").count == 192)
    }

    @Test func step5DecryptServerDHParams() throws {
        let temporary = MTProtoKeyDerivation.temporaryAESKeyIV(newNonce: bytes("new_nonce"), serverNonce: bytes("server_nonce"))
        #expect(temporary.key == bytes("tmp_aes_key"))
        #expect(temporary.iv == bytes("tmp_aes_iv"))
        let answerWithHash = try AESIGE.decrypt(bytes("encrypted_answer"), key: temporary.key, iv: temporary.iv)
        #expect(answerWithHash == bytes("answer_with_hash"))
        // answer_with_hash = SHA1(answer) ‖ answer ‖ padding: parse the answer and check its hash.
        var reader = TLReader(Array(answerWithHash[20...]))
        let answer = try MTProto.ServerDHInnerData.parse(&reader)
        let answerBytes = Array(answerWithHash[20..<(20 + reader.offset)])
        #expect(Digest.sha1(answerBytes) == Array(answerWithHash[0..<20]))
        #expect(answerWithHash.count - 20 - answerBytes.count < 16)
        guard case .serverDHInnerData(let inner) = answer else { Issue.record("not server_DH_inner_data"); return }
        #expect(inner.nonce == int128("nonce") && inner.serverNonce == int128("server_nonce"))
        #expect(inner.g == 3 && inner.serverTime == 1_707_425_105)
        #expect(inner.dhPrime.count == 256 && inner.gA.count == 256)
        // Security guidelines: a safe 2048-bit prime, the condition on g, and the range of g_a.
        try DiffieHellman.checkParameters(prime: inner.dhPrime, g: inner.g)
        try DiffieHellman.checkPublicValue(inner.gA, prime: inner.dhPrime)
    }

    @Test func step6ClientDHAndAuthKey() throws {
        let temporary = MTProtoKeyDerivation.temporaryAESKeyIV(newNonce: bytes("new_nonce"), serverNonce: bytes("server_nonce"))
        let answerWithHash = bytes("answer_with_hash")
        var reader = TLReader(Array(answerWithHash[20...]))
        let parsed = try MTProto.ServerDHInnerData.parse(&reader)
        guard case .serverDHInnerData(let inner) = parsed else {
            Issue.record("not server_DH_inner_data: \(parsed)")
            return
        }
        let b = bytes("b")
        let gB = try DiffieHellman.publicValue(g: inner.g, secret: b, prime: inner.dhPrime)
        #expect(gB == bytes("g_b"))
        try DiffieHellman.checkPublicValue(gB, prime: inner.dhPrime)
        let clientInner = MTProto.ClientDHInnerData.clientDHInnerData(
            .init(nonce: int128("nonce"), serverNonce: int128("server_nonce"), retryId: 0, gB: gB))
        let data = clientInner.serialized()
        let dataWithHash = Digest.sha1(data) + data + bytes("client_dh_padding")
        #expect(dataWithHash.count % 16 == 0)
        let encrypted = try AESIGE.encrypt(dataWithHash, key: temporary.key, iv: temporary.iv)
        #expect(encrypted == bytes("client_dh_encrypted_data"))
        let authKey = try DiffieHellman.sharedKey(peerValue: inner.gA, secret: b, prime: inner.dhPrime)
        #expect(authKey == bytes("auth_key"))
        // dh_gen_ok carries new_nonce_hash1 = last 16 bytes of SHA1(new_nonce ‖ 1 ‖ auth_key_aux_hash).
        let hash1 = MTProtoKeyDerivation.newNonceHash(newNonce: bytes("new_nonce"), authKey: authKey, number: 1)
        #expect(hash1 == bytes("new_nonce_hash1"))
        let genOk = try MTProto.SetClientDHParamsAnswer(tlBytes: bytes("dh_gen_ok_payload_body"))
        guard case .dhGenOk(let ok) = genOk else { Issue.record("not dh_gen_ok"); return }
        #expect(ok.newNonceHash1.bytes == hash1)
        #expect(ok.nonce == int128("nonce") && ok.serverNonce == int128("server_nonce"))
        #expect(genOk.serialized() == bytes("dh_gen_ok_payload_body"))
        let salt = MTProtoKeyDerivation.initialServerSalt(newNonce: bytes("new_nonce"), serverNonce: bytes("server_nonce"))
        #expect(salt.count == 8 && salt == zip(bytes("new_nonce")[0..<8], bytes("server_nonce")[0..<8]).map { $0 ^ $1 })
    }
}

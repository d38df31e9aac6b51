import CryptoUtils
import Foundation
import SecretApi
import SecretChats
import Testing
import TLRuntime

/// MTProto 1.0 from a peer that has not shown layer ≥ 73 (core.telegram.org "End-to-End Encryption, Secret Chats";
/// Telegram-iOS `ProcessSecretChatIncomingEncryptedOperations.swift` opens with `.v2`, then `.v1`): accepted only in
/// that window and never at or after the other side's first 2.0 message; never sent.
@Suite struct MTProto1FallbackTests {
    func pair(seed: UInt64) throws -> (ours: Peer, theirs: Peer) {
        let (a, b) = try establishedPair(seed: seed)
        return (Peer(a, seed: seed + 1), Peer(b, seed: seed + 2))
    }

    /// A payload the participant would send as raw `raw` at layer `layer`, after `received` of ours.
    func payload(_ text: String, raw: Int32, received: Int32 = 0, layer: Int32 = 46) -> [UInt8] {
        SecretApi.DecryptedMessageLayer.decryptedMessageLayer(
            .init(randomBytes: Array(repeating: 7, count: 16), layer: layer, inSeqNo: 2 * received + 1,
                outSeqNo: 2 * raw, message: .decryptedMessage(.init(randomId: Int64(raw) + 1, ttl: 0, message: text)))
        ).serialized()
    }

    /// `payload` sealed with 2.0 by the participant.
    func sealMTProto2(_ payload: [UInt8], key: SecretChatKey, random: SecretChatRandom) -> [UInt8] {
        SecretChatCrypto.seal(payload, key: key, sender: .participant, random: random)
    }

    @Test func aFirstMessageInMTProto1IsTakenWhileThePeersLayerIsUnknown() throws {
        let (ours, theirs) = try pair(seed: 301)
        // What telethon-secret-chat does: its layer notice sealed with 1.0 (it does not know our layer yet), then,
        // having learned it, its text in 2.0.
        let sent = theirs.session.send(text("hello", randomId: 11), now: theirs.now, random: theirs.random)
        #expect(sent.count == 2)
        var replies = ours.receive(sealMTProto1(sent[0].payload, key: theirs.session.key))
        #expect(ours.session.peerLayer == SecretChatLayer.current)
        replies += ours.receive(sent[1].sealed)
        #expect(ours.shown == ["hello"])
        #expect(ours.drops.isEmpty)
        #expect(ours.session.sequence.inRaw == 2)
        // Our answers (the layer notice) are MTProto 2.0 and never open as 1.0.
        #expect(!replies.isEmpty)
        for reply in replies {
            #expect((try? SecretChatCrypto.open(reply, keys: [ours.session.key], sender: .originator)) != nil)
            #expect((try? SecretChatCrypto.openMTProto1(reply, keys: [ours.session.key])) == nil)
        }
    }

    @Test func mtproto1IsRefusedOnceThePeerShowedLayer73() throws {
        let (ours, theirs) = try pair(seed: 311)
        let first = theirs.session.send(text("one", randomId: 1), now: theirs.now, random: theirs.random)
        _ = ours.receive(sealMTProto1(first[0].payload, key: theirs.session.key))
        _ = ours.receive(first[1].sealed)
        #expect(ours.shown == ["one"] && ours.session.peerLayer == SecretChatLayer.current)
        #expect(!ours.session.acceptsMTProto1)
        // Layer 144 is known now: a 1.0 message is what a modified message would be.
        let second = theirs.session.send(text("two", randomId: 2), now: theirs.now, random: theirs.random)
        _ = ours.receive(sealMTProto1(try #require(second.last).payload, key: theirs.session.key))
        #expect(ours.shown == ["one"])
        #expect(ours.drops == [.crypto(.messageKeyMismatch)])
        // The same message in 2.0 is taken.
        _ = ours.receive(try #require(second.last).sealed)
        #expect(ours.shown == ["one", "two"])
    }

    @Test func mtproto1IsRefusedAtAndAfterThePeersFirstMTProto2Message() throws {
        let (ours, theirs) = try pair(seed: 321)
        let key = theirs.session.key
        // A layer-46 peer: 1.0 stays possible by layer, but it used 2.0 at raw 1.
        _ = ours.receive(sealMTProto1(payload("a", raw: 0), key: key))
        _ = ours.receive(sealMTProto2(payload("b", raw: 1), key: key, random: theirs.random))
        #expect(ours.session.acceptsMTProto1 && ours.session.peerMTProto2From == 1)
        _ = ours.receive(sealMTProto1(payload("c", raw: 2), key: key))
        #expect(ours.shown == ["a", "b"])
        #expect(ours.drops == [.mtproto1Refused(outSeqNo: 4)])
        _ = ours.receive(sealMTProto2(payload("c", raw: 2), key: key, random: theirs.random))
        #expect(ours.shown == ["a", "b", "c"])
    }

    @Test func anEarlierMTProto1MessageDeliveredAfterALaterMTProto2OneIsTaken() throws {
        let (ours, theirs) = try pair(seed: 331)
        let key = theirs.session.key
        // Sent 1.0 then 2.0; delivered the other way round: raw 1 is held, raw 0 (1.0, before the first 2.0) fills it.
        _ = ours.receive(sealMTProto2(payload("second", raw: 1), key: key, random: theirs.random))
        _ = ours.receive(sealMTProto1(payload("first", raw: 0), key: key))
        #expect(ours.shown == ["first", "second"])
        #expect(ours.session.held.isEmpty)
    }

    @Test func tamperedMTProto1IsRefused() throws {
        let (ours, theirs) = try pair(seed: 341)
        let sealed = sealMTProto1(payload("x", raw: 0), key: theirs.session.key)
        for index in [8, 20, 30, sealed.count - 1] {
            var bad = sealed
            bad[index] ^= 0x10
            _ = ours.receive(bad)
        }
        #expect(ours.shown.isEmpty)
        #expect(ours.drops.allSatisfy { $0 == .crypto(.messageKeyMismatch) } && ours.drops.count == 4)
        // More than 15 bytes of padding is not 1.0.
        _ = ours.receive(sealMTProto1(payload("x", raw: 0), key: theirs.session.key, extraBlock: true))
        #expect(ours.shown.isEmpty)
        _ = ours.receive(sealed)
        #expect(ours.shown == ["x"])
    }
}

/// Seals `payload` with MTProto 1.0 as a layer < 73 client does (core.telegram.org/mtproto_v1, x = 0), written here
/// from the docs, apart from the module's opener: the module itself never seals 1.0.
/// `extraBlock` pads 16 bytes more than 1.0 allows.
func sealMTProto1(_ payload: [UInt8], key: SecretChatKey, extraBlock: Bool = false) -> [UInt8] {
    let unpadded = withUnsafeBytes(of: Int32(payload.count).littleEndian) { Array($0) } + payload
    let toBlock = (16 - unpadded.count % 16) % 16
    let plaintext = unpadded + Array(repeating: 0x5a, count: toBlock + (extraBlock ? 16 : 0))
    let msgKey = Array(Digest.sha1(unpadded)[4..<20])
    let k = key.bytes
    let a = Digest.sha1(msgKey + Array(k[0..<32]))
    let b = Digest.sha1(Array(k[32..<48]) + msgKey + Array(k[48..<64]))
    let c = Digest.sha1(Array(k[64..<96]) + msgKey)
    let d = Digest.sha1(msgKey + Array(k[96..<128]))
    let aesKey = Array(a[0..<8]) + Array(b[8..<20]) + Array(c[4..<16])
    let aesIV = Array(a[8..<20]) + Array(b[0..<8]) + Array(c[16..<20]) + Array(d[0..<8])
    let fingerprint = withUnsafeBytes(of: key.fingerprint.littleEndian) { Array($0) }
    return fingerprint + msgKey + ((try? AESIGE.encrypt(plaintext, key: aesKey, iv: aesIV)) ?? [])
}

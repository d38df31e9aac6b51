import CryptoUtils
import SecretChats

extension FuzzHarness {
    /// What a secret chat's other side can make our session read: the input is records `length:u16le payload`, each
    /// payload a `decryptedMessageLayer` sealed under the chat's key as the originator would (so the fuzzer reaches
    /// past the msg_key check into the TL parser, the sequence numbers, gaps, resend ranges, layers and re-key
    /// steps) and received by the participant's session in order. Accepted when some record parsed as a layer.
    public static let secretChat = FuzzHarness(
        name: "secret-chat", summary: "decryptedMessageLayer payloads, sealed → SecretChatSession.receive"
    ) { input in
        guard let pair = secretChatFuzzPair else { return .rejected }
        var session = SecretChatSession(established: pair.participant, now: 1_800_000_000)
        let random = SecretChatRandom { [UInt8](repeating: 0x5a, count: $0) }
        var offset = 0
        var parsed = false
        while offset + 2 <= input.count {
            let length = Int(input[offset]) | Int(input[offset + 1]) << 8
            offset += 2
            let payload = Array(input[offset..<min(input.count, offset + length)])
            offset += payload.count
            let sealed = SecretChatCrypto.seal(payload, key: pair.participant.key, sender: .originator, random: random)
            let before = (session.sequence.inRaw, session.held.count)
            for event in session.receive(sealed, now: 1_800_000_000, random: random) {
                switch event {
                case .dropped(.crypto), .dropped(.malformed), .dropped(.terminated): break
                default: parsed = true
                }
            }
            if (session.sequence.inRaw, session.held.count) != before { parsed = true }
        }
        return parsed ? .accepted : .rejected
    }
}

/// One fixed exchange on Telegram's group for the harness (computed once: two 2048-bit exponentiations).
let secretChatFuzzPair: (originator: SecretChatEstablished, participant: SecretChatEstablished)? = {
    let random = SecretChatRandom { count in (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) } }
    let config = SecretChatDHConfig(g: DiffieHellman.telegramGenerator, prime: DiffieHellman.telegramPrime, version: 1)
    guard
        let request = try? SecretChatRequest.make(
            config: config, serverRandom: [UInt8](repeating: 3, count: 256), random: random),
        let acceptance = try? SecretChatAcceptance.make(
            gA: request.gA, config: config, serverRandom: [UInt8](repeating: 5, count: 256), random: random),
        let originator = try? request.complete(gB: acceptance.gB, fingerprint: acceptance.fingerprint)
    else { return nil }
    return (originator, acceptance.established)
}()

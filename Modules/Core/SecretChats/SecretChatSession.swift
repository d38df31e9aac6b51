public import SecretApi
import TLRuntime

/// One message this side sends: its raw out number, the serialized `decryptedMessageLayer` (kept by the shell, in
/// the same transaction as the message, so a resend request can be answered) and the sealed bytes for
/// `messages.sendEncrypted` / `sendEncryptedService`.
public struct SecretChatOutgoing: Sendable, Equatable {
    public let raw: Int32
    public let payload: [UInt8]
    public let sealed: [UInt8]
    /// A protocol message (layer, resend, re-key, noop): `sendEncryptedService`, nothing shown.
    public let isService: Bool
}

/// What receiving one message led to.
public enum SecretChatEvent: Sendable {
    /// Something for the user: a message, or a user-level action (typing, read, TTL, delete, screenshot).
    case message(SecretApi.DecryptedMessage, layer: Int32)
    /// A protocol message this side must send now (layer, resend request, re-key step, noop).
    case send(SecretChatOutgoing)
    /// The other side lost these of our messages (raw numbers): re-seal each stored payload with `reseal` and send.
    case resend(ClosedRange<Int32>)
    /// A message was not shown, and why.
    case dropped(SecretChatDrop)
    /// The key in use changed (re-keying finished); the new fingerprint.
    case keyChanged(Int64)
    /// The chat broke a rule that the docs say ends it (seq_no parity, acknowledging unsent messages, too many
    /// held): discard it (`messages.discardEncryption`).
    case terminated(String)
}

/// Why a received message was not shown. Never shown to the user either.
public enum SecretChatDrop: Sendable, Equatable {
    case crypto(SecretChatCrypto.OpenFailure)
    case malformed(String)
    case duplicate(outSeqNo: Int32)
    /// Held until the missing messages arrive.
    case heldForGap(ClosedRange<Int32>)
    /// The missing messages (raw, of the other side) were asked for and did not come within
    /// `SecretChatSession.gapTimeout`: given up on, and what was held behind them processed.
    case gapSkipped(ClosedRange<Int32>)
    /// It opened only with MTProto 1.0, and the other side had already used 2.0 at or before its number.
    case mtproto1Refused(outSeqNo: Int32)
    case terminated
}

/// A secret chat's whole protocol state without I/O — keys, layer, sequence numbers, the re-key in progress and
/// the messages held behind a gap — as one value the shell stores in Postbox with the message it changed.
public struct SecretChatSession: Sendable, Codable, Equatable {
    public let role: SecretChatRole
    public let config: SecretChatDHConfig
    public let visualization: SecretChatKeyVisualization
    public private(set) var key: SecretChatKey
    /// The key before the last re-key, until the first message under the new one arrives.
    public private(set) var previousKey: SecretChatKey?
    public private(set) var sequence: SecretChatSequence
    public private(set) var peerLayer: Int32?
    public private(set) var layerAnnounced = false
    public private(set) var rekey: SecretChatRekeyState = .idle
    public private(set) var usage: SecretChatKeyUsage
    /// Received messages waiting for a gap to close: raw out number → decrypted layer bytes.
    public private(set) var held: [Int32: [UInt8]] = [:]
    /// The highest raw number a resend was asked for.
    public private(set) var requestedThrough: Int32 = -1
    public private(set) var terminated: String?
    /// Re-keys completed.
    public private(set) var rekeyCount = 0
    /// The lowest raw out number of the other side's messages that opened with MTProto 2.0: MTProto 1.0 is refused
    /// from there on (optional, so that sessions stored before it decode).
    public private(set) var peerMTProto2From: Int32?
    /// When the resend of the current gap was asked for (or the gap last moved); nil when nothing is held.
    public private(set) var gapSince: Int32?

    /// Messages held behind a gap at most; more ends the chat.
    public static let maximumHeld = 1000
    /// Seconds a gap may stay open after its resend was asked for; then the missing messages are given up and what
    /// is held behind them is processed (`skipExpiredGap`). A peer that cannot resend does not stop the chat.
    public static let gapTimeout: Int32 = 30
    /// The layer from which the other side must use MTProto 2.0 (core.telegram.org "End-to-End Encryption, Secret
    /// Chats"); below it, or before its layer is known, a message may still come in MTProto 1.0.
    public static let mtproto2Layer: Int32 = 73

    /// Whether a message that does not open with MTProto 2.0 may be tried with 1.0: only while the other side has
    /// not shown a layer of 73 or more.
    public var acceptsMTProto1: Bool { (peerLayer ?? 0) < SecretChatSession.mtproto2Layer }

    /// When the open gap is given up (`skipExpiredGap`), or nil when nothing is held.
    public var gapDeadline: Int32? {
        guard terminated == nil, !held.isEmpty else { return nil }
        return gapSince.map { $0 + SecretChatSession.gapTimeout }
    }

    public init(established: SecretChatEstablished, now: Int32) {
        role = established.role
        config = established.config
        key = established.key
        visualization = SecretChatKeyVisualization(key: established.key, originatorGA: established.originatorGA)
        sequence = SecretChatSequence(role: established.role)
        usage = SecretChatKeyUsage(since: now)
    }

    var peerRole: SecretChatRole { role == .originator ? .participant : .originator }

    /// The layer written into outgoing messages.
    public var layer: Int32 { SecretChatLayer.negotiated(peer: peerLayer) }

    // MARK: Sending

    /// Seals `message` as the next message; the first send announces this side's layer first, and a key due for
    /// replacement starts a re-key after it.
    public mutating func send(
        _ message: SecretApi.DecryptedMessage, now: Int32, policy: SecretChatRekeyPolicy = .standard,
        random: SecretChatRandom = .secure
    ) -> [SecretChatOutgoing] {
        var result = announceLayerIfNeeded(random: random)
        result.append(seal(message, isService: false, random: random))
        if let request = startRekeyIfDue(now: now, policy: policy, random: random) { result.append(request) }
        return result
    }

    /// A protocol action as the next message (typing, read, TTL set by the user go through `send`).
    mutating func sendService(
        _ action: SecretApi.DecryptedMessageAction, random: SecretChatRandom
    ) -> SecretChatOutgoing {
        let message = SecretApi.DecryptedMessage.decryptedMessageService(
            .init(randomId: random.int64(), action: action))
        return seal(message, isService: true, random: random)
    }

    mutating func announceLayerIfNeeded(random: SecretChatRandom) -> [SecretChatOutgoing] {
        guard !layerAnnounced else { return [] }
        layerAnnounced = true
        return [sendService(.decryptedMessageActionNotifyLayer(.init(layer: SecretChatLayer.current)), random: random)]
    }

    mutating func seal(
        _ message: SecretApi.DecryptedMessage, isService: Bool, random: SecretChatRandom
    )
        -> SecretChatOutgoing
    {
        let numbers = sequence.nextOutgoing()
        let layerValue = SecretApi.DecryptedMessageLayer.decryptedMessageLayer(
            .init(
                randomBytes: random.bytes(16), layer: layer, inSeqNo: numbers.inSeqNo, outSeqNo: numbers.outSeqNo,
                message: message))
        let payload = layerValue.serialized()
        usage.sealed += 1
        return SecretChatOutgoing(
            raw: numbers.raw, payload: payload,
            sealed: SecretChatCrypto.seal(payload, key: key, sender: role, random: random),
            isService: isService)
    }

    /// A stored payload sealed again under the key in use, for a resend (same numbers, same random_id).
    public func reseal(_ payload: [UInt8], random: SecretChatRandom = .secure) -> [UInt8] {
        SecretChatCrypto.seal(payload, key: key, sender: role, random: random)
    }

    /// Starts a re-key when the key is due and none is in progress (called on send, receive and `tick`).
    public mutating func startRekeyIfDue(
        now: Int32, policy: SecretChatRekeyPolicy = .standard, random: SecretChatRandom = .secure
    ) -> SecretChatOutgoing? {
        guard terminated == nil, rekey.isIdle, policy.isDue(usage: usage, now: now) else { return nil }
        let a = random.bytes(256)
        guard let gA = try? SecretChatKeyExchange.publicValue(config: config, secret: a) else { return nil }
        let exchangeId = random.int64()
        rekey = .requesting(exchangeId: exchangeId, a: a)
        return sendService(.decryptedMessageActionRequestKey(.init(exchangeId: exchangeId, gA: gA)), random: random)
    }

    // MARK: Receiving

    /// Opens, checks and processes one received message, then whatever it released from behind a gap; then gives up
    /// a gap whose resend did not come within `gapTimeout` (`skipExpiredGap`).
    public mutating func receive(
        _ bytes: [UInt8], now: Int32, policy: SecretChatRekeyPolicy = .standard, random: SecretChatRandom = .secure
    ) -> [SecretChatEvent] {
        var events = receiveOne(bytes, now: now, policy: policy, random: random)
        events += skipExpiredGap(now: now, policy: policy, random: random)
        return events
    }

    /// Opens a received message: MTProto 2.0, or 1.0 while `acceptsMTProto1` (Telegram-iOS tries `.v2`, then `.v1`).
    func open(
        _ bytes: [UInt8], keys: [SecretChatKey]
    ) throws(SecretChatCrypto.OpenFailure)
        -> (payload: [UInt8], key: SecretChatKey, mtproto1: Bool)
    {
        do {
            let opened = try SecretChatCrypto.open(bytes, keys: keys, sender: peerRole)
            return (opened.payload, opened.key, false)
        } catch {
            // A 1.0 message read as 2.0 fails the msg_key check (or 2.0's length rules: 1.0 pads less).
            let mayBeMTProto1: Bool
            if case .unknownFingerprint = error { mayBeMTProto1 = false } else { mayBeMTProto1 = acceptsMTProto1 }
            guard mayBeMTProto1, let opened = try? SecretChatCrypto.openMTProto1(bytes, keys: keys) else { throw error }
            return (opened.payload, opened.key, true)
        }
    }

    mutating func receiveOne(
        _ bytes: [UInt8], now: Int32, policy: SecretChatRekeyPolicy, random: SecretChatRandom
    ) -> [SecretChatEvent] {
        guard terminated == nil else { return [.dropped(.terminated)] }
        var keys = [key]
        if case .accepted(_, let pending) = rekey { keys.append(pending) }
        if let previousKey { keys.append(previousKey) }
        let opened: (payload: [UInt8], key: SecretChatKey, mtproto1: Bool)
        do { opened = try open(bytes, keys: keys) } catch {
            return [.dropped(.crypto(error))]
        }
        let parsed: SecretApi.DecryptedMessageLayer.Cons_decryptedMessageLayer
        do { parsed = try SecretChatSession.parseLayer(opened.payload) } catch {
            return [.dropped(.malformed("\(error)"))]
        }
        var events: [SecretChatEvent] = []
        let verdict = sequence.check(inSeqNo: parsed.inSeqNo, outSeqNo: parsed.outSeqNo)
        if case .violation(let reason) = verdict {
            terminated = reason
            return [.terminated(reason)]
        }
        // MTProto 1.0 never after the other side used 2.0 (in its own numbering, so a reordered delivery of an
        // earlier 1.0 message is still taken); the first 2.0 message closes the door.
        let raw = sequence.rawOut(ofReceived: parsed.outSeqNo)
        if opened.mtproto1 {
            if let from = peerMTProto2From, raw >= from {
                return [.dropped(.mtproto1Refused(outSeqNo: parsed.outSeqNo))]
            }
        } else {
            peerMTProto2From = min(peerMTProto2From ?? raw, raw)
        }
        if opened.key == key {
            usage.opened += 1
            previousKey = nil
        }
        switch verdict {
        case .violation:
            return []  // handled above
        case .duplicate:
            return [.dropped(.duplicate(outSeqNo: parsed.outSeqNo))]
        case .gap(let missing):
            guard held.count < SecretChatSession.maximumHeld || held[raw] != nil else {
                terminated = "more than \(SecretChatSession.maximumHeld) messages held behind a gap"
                return [.terminated(terminated!)]
            }
            if gapSince == nil { gapSince = now }
            if held[raw] == nil {
                held[raw] = opened.payload
                // A resend request is acted on at once: two sides each waiting behind a gap would otherwise wait
                // for each other (the docs' "avoiding concurrent gaps"); in order it is not acted on again.
                if case .decryptedMessageActionResend(let resend)? = SecretChatSession.action(of: parsed.message),
                    let range = sequence.resendRange(start: resend.startSeqNo, end: resend.endSeqNo)
                {
                    events.append(.resend(range))
                }
            }
            events.append(.dropped(.heldForGap(missing)))
            // Only what is neither asked for nor held: a message that arrives behind the gap is not missing, and
            // asking for it again (one request per arrival) made a peer that answers every message with a notice
            // and cannot resend (telethon-secret-chat) trade requests with us without end.
            // The ends step over held numbers only (at most `maximumHeld`), never over the whole range a peer named.
            var from = max(missing.lowerBound, requestedThrough + 1)
            var through = missing.upperBound
            while from <= through, held[from] != nil { from += 1 }
            while through >= from, held[through] != nil { through -= 1 }
            requestedThrough = max(requestedThrough, missing.upperBound)
            if from <= through {
                let wire = sequence.resendRequest(for: from...through)
                events.append(contentsOf: announceLayerIfNeeded(random: random).map { .send($0) })
                events.append(
                    .send(
                        sendService(
                            .decryptedMessageActionResend(.init(startSeqNo: wire.start, endSeqNo: wire.end)),
                            random: random)))
            }
            return events
        case .inOrder:
            events += process(parsed, heldBefore: false, now: now, random: random)
            sequence.accept()
        }
        events += releaseHeld(now: now, random: random)
        if let request = startRekeyIfDue(now: now, policy: policy, random: random) { events.append(.send(request)) }
        return events
    }

    /// Processes the held messages that are next in order; the gap's clock restarts when it moved, stops when
    /// nothing is held.
    mutating func releaseHeld(now: Int32, random: SecretChatRandom) -> [SecretChatEvent] {
        var events: [SecretChatEvent] = []
        var released = false
        while terminated == nil, let next = held.removeValue(forKey: sequence.inRaw) {
            released = true
            guard let message = try? SecretChatSession.parseLayer(next) else { sequence.accept(); continue }
            events += process(message, heldBefore: true, now: now, random: random)
            sequence.accept()
        }
        if held.isEmpty {
            gapSince = nil
        } else if released {
            gapSince = now
        }
        return events
    }

    /// Gives up the open gap when its resend was asked for `gapTimeout` seconds ago or more: the missing messages
    /// are counted as received (never shown) and what was held behind them is processed in order, up to the next
    /// gap, whose clock starts now. The docs ask the other side to resend and wait; a peer that cannot resend
    /// (telethon-secret-chat sends a new message instead) would otherwise stop the chat for good. The shell calls
    /// this at `gapDeadline`; `receive` calls it too.
    public mutating func skipExpiredGap(
        now: Int32, policy: SecretChatRekeyPolicy = .standard, random: SecretChatRandom = .secure
    ) -> [SecretChatEvent] {
        guard terminated == nil, let deadline = gapDeadline, now >= deadline, let first = held.keys.min(),
            first > sequence.inRaw
        else { return [] }
        var events: [SecretChatEvent] = [.dropped(.gapSkipped(sequence.inRaw...(first - 1)))]
        sequence.inRaw = first
        events += releaseHeld(now: now, random: random)
        if let request = startRekeyIfDue(now: now, policy: policy, random: random) { events.append(.send(request)) }
        return events
    }

    /// The message held behind a gap under raw out number `raw`, decrypted (the shell keeps the location of the
    /// encrypted file its transmission carried until the gap closes).
    public func heldMessage(raw: Int32) -> SecretApi.DecryptedMessage? {
        held[raw].flatMap { try? SecretChatSession.parseLayer($0).message }
    }

    /// The action of a service message, whichever layer's constructor carries it.
    static func action(of message: SecretApi.DecryptedMessage) -> SecretApi.DecryptedMessageAction? {
        switch message {
        case .decryptedMessageService(let service): return service.action
        case .decryptedMessageService8(let service): return service.action
        default: return nil
        }
    }

    static func parseLayer(_ payload: [UInt8]) throws -> SecretApi.DecryptedMessageLayer.Cons_decryptedMessageLayer {
        let value = try SecretApi.DecryptedMessageLayer(
            tlBytes: payload, limits: .init(maxDepth: 16, maxUnpackedSize: 0))
        guard case .decryptedMessageLayer(let layer) = value else { throw SecretChatError.wrongState("layer") }
        return layer
    }

    mutating func process(
        _ layer: SecretApi.DecryptedMessageLayer.Cons_decryptedMessageLayer, heldBefore: Bool, now: Int32,
        random: SecretChatRandom
    ) -> [SecretChatEvent] {
        if layer.layer > (peerLayer ?? 0) { peerLayer = min(layer.layer, SecretChatLayer.current) }
        // Some clients wrap layer-8 service messages (with their own random bytes) in a layer: same actions.
        let action: SecretApi.DecryptedMessageAction
        switch layer.message {
        case .decryptedMessageService(let service): action = service.action
        case .decryptedMessageService8(let service): action = service.action
        default: return [.message(layer.message, layer: layer.layer)]
        }
        switch action {
        case .decryptedMessageActionNotifyLayer(let notify):
            peerLayer = max(peerLayer ?? 0, min(notify.layer, SecretChatLayer.current))
            return announceLayerIfNeeded(random: random).map { .send($0) }
        case .decryptedMessageActionResend(let resend):
            guard !heldBefore, let range = sequence.resendRange(start: resend.startSeqNo, end: resend.endSeqNo) else {
                return []
            }
            return [.resend(range)]
        case .decryptedMessageActionRequestKey(let request):
            return receiveRequestKey(id: request.exchangeId, gA: request.gA, random: random)
        case .decryptedMessageActionAcceptKey(let accept):
            return receiveAcceptKey(
                id: accept.exchangeId, gB: accept.gB, fingerprint: accept.keyFingerprint,
                now: now, random: random)
        case .decryptedMessageActionCommitKey(let commit):
            return receiveCommitKey(id: commit.exchangeId, fingerprint: commit.keyFingerprint, now: now, random: random)
        case .decryptedMessageActionAbortKey(let abort):
            if rekey.exchangeId == abort.exchangeId { rekey = .idle }
            return []
        case .decryptedMessageActionNoop:
            return []
        default:
            return [.message(layer.message, layer: layer.layer)]
        }
    }

    // MARK: Re-keying

    mutating func receiveRequestKey(id: Int64, gA: [UInt8], random: SecretChatRandom) -> [SecretChatEvent] {
        switch rekey {
        case .requesting(let own, _) where own > id:
            return []  // ours goes on; the other side abandons its own when it sees ours
        case .accepted:
            return [.send(sendService(.decryptedMessageActionAbortKey(.init(exchangeId: id)), random: random))]
        default:
            break
        }
        let b = random.bytes(256)
        guard (try? SecretChatKeyExchange.checkPublicValue(gA, config: config)) != nil,
            let gB = try? SecretChatKeyExchange.publicValue(config: config, secret: b),
            let newKey = try? SecretChatKeyExchange.sharedKey(peer: gA, secret: b, config: config)
        else {
            rekey = .idle
            return [.send(sendService(.decryptedMessageActionAbortKey(.init(exchangeId: id)), random: random))]
        }
        rekey = .accepted(exchangeId: id, key: newKey)
        return [
            .send(
                sendService(
                    .decryptedMessageActionAcceptKey(.init(exchangeId: id, gB: gB, keyFingerprint: newKey.fingerprint)),
                    random: random))
        ]
    }

    mutating func receiveAcceptKey(
        id: Int64, gB: [UInt8], fingerprint: Int64, now: Int32, random: SecretChatRandom
    )
        -> [SecretChatEvent]
    {
        guard case .requesting(let own, let a) = rekey, own == id,
            (try? SecretChatKeyExchange.checkPublicValue(gB, config: config)) != nil,
            let newKey = try? SecretChatKeyExchange.sharedKey(peer: gB, secret: a, config: config),
            newKey.fingerprint == fingerprint
        else {
            if rekey.exchangeId == id { rekey = .idle }
            return [.send(sendService(.decryptedMessageActionAbortKey(.init(exchangeId: id)), random: random))]
        }
        // commitKey goes under the old key; everything after it under the new one.
        let commit = sendService(
            .decryptedMessageActionCommitKey(.init(exchangeId: id, keyFingerprint: fingerprint)), random: random)
        switchKey(to: newKey, now: now)
        return [.send(commit), .keyChanged(newKey.fingerprint)]
    }

    mutating func receiveCommitKey(
        id: Int64, fingerprint: Int64, now: Int32, random: SecretChatRandom
    )
        -> [SecretChatEvent]
    {
        guard case .accepted(let own, let newKey) = rekey, own == id, newKey.fingerprint == fingerprint else {
            if rekey.exchangeId == id { rekey = .idle }
            return [.send(sendService(.decryptedMessageActionAbortKey(.init(exchangeId: id)), random: random))]
        }
        switchKey(to: newKey, now: now)
        return [.keyChanged(newKey.fingerprint), .send(sendService(.decryptedMessageActionNoop, random: random))]
    }

    mutating func switchKey(to newKey: SecretChatKey, now: Int32) {
        previousKey = key
        key = newKey
        rekey = .idle
        usage = SecretChatKeyUsage(since: now)
        rekeyCount += 1
    }
}

extension SecretChatSession: CustomStringConvertible {
    /// Role, layer, counters and the re-key state; never a key.
    public var description: String {
        "SecretChatSession(\(role), layer \(layer), out \(sequence.outRaw), in \(sequence.inRaw), held \(held.count), "
            + "fingerprint \(key.fingerprint), re-key \(rekey), re-keys \(rekeyCount)"
            + (terminated.map { ", terminated: \($0)" } ?? "") + ")"
    }
}

import CryptoUtils
import Testing

@testable import MTProtoCore

/// The server's resend cache (a ring in sending order) and the salt a session seals with (computed once per period):
/// what `msg_resend_req` and every sealed packet rely on.
@Suite struct ResendCacheTests {
    static func message(_ id: Int64, bytes: Int = 8) -> InnerMessage {
        InnerMessage(messageId: id, seqNo: 1, body: [UInt8](repeating: UInt8(truncatingIfNeeded: id), count: bytes))
    }

    @Test func keepsTheNewestEntriesAndForgetsTheOldestFirst() {
        var cache = ResendCache(entries: 3, bytes: 1 << 20)
        for id in Int64(1)...5 { cache.remember(Self.message(id * 4)) }
        #expect(cache.count == 3)
        #expect(cache.message(4) == nil && cache.message(8) == nil)
        for id in Int64(3)...5 { #expect(cache.message(id * 4) == Self.message(id * 4)) }
    }

    @Test func staysWithinItsByteBudgetAndRefusesAMessageLargerThanIt() {
        var cache = ResendCache(entries: 100, bytes: 100)
        cache.remember(Self.message(4, bytes: 40))
        cache.remember(Self.message(8, bytes: 40))
        cache.remember(Self.message(12, bytes: 40))
        #expect(cache.message(4) == nil && cache.message(8) != nil && cache.message(12) != nil)
        cache.remember(Self.message(16, bytes: 101))
        #expect(cache.message(16) == nil && cache.count == 2)
    }

    @Test func aMessageIdAlreadyKeptIsNotKeptTwice() {
        var cache = ResendCache(entries: 4, bytes: 1 << 20)
        cache.remember(Self.message(4))
        cache.remember(Self.message(8))
        cache.remember(InnerMessage(messageId: 4, seqNo: 3, body: [9, 9, 9, 9]))
        #expect(cache.count == 2 && cache.message(4) == Self.message(4))
        // An older id not kept yet is kept (ids normally grow; nothing relies on it).
        cache.remember(Self.message(2))
        #expect(cache.count == 3 && cache.message(2) == Self.message(2))
    }

    @Test func manyMessagesThroughASmallRingKeepOnlyTheLastOnes() {
        var cache = ResendCache(entries: 8, bytes: 1 << 20)
        for id in Int64(1)...5_000 { cache.remember(Self.message(id * 4)) }
        #expect(cache.count == 8)
        #expect(cache.message(4_992 * 4) == nil)
        for id in Int64(4_993)...5_000 { #expect(cache.message(id * 4) == Self.message(id * 4)) }
    }

    @Test func sealedPacketsCarryTheSaltOfTheirPeriodAcrossAPeriodBoundary() throws {
        var session = ServerSession(
            authKey: Wire.key, sessionId: Wire.sessionId, schedule: Wire.schedule, handshakeSalt: nil)
        let period = Double(SaltSchedule.period)
        let start = (Wire.now / period).rounded(.down) * period
        for time in [start + 1, start + period - 1, start + period, start + 3 * period + 5] {
            let packets = session.seal([session.push([0x15, 0xc4, 0xb5, 0x1c, 0, 0, 0, 0])], now: time)
            let decrypted = try EncryptedMessage.decrypt(
                try #require(packets.first), authKey: Wire.key, direction: .serverToClient)
            #expect(decrypted.salt == Wire.schedule.salt(authKeyId: Wire.key.id, time: time), "at \(time)")
        }
    }
}

/// Padding drawn from a pool: each byte handed out once, whatever the sizes asked.
@Suite struct PaddingPoolTests {
    @Test func handsOutTheSizesAskedAndNeverTheSameBytesTwice() {
        var pool = PaddingPool()
        var taken: [[UInt8]] = []
        for count in [12, 27, 1024, 500, 512, 12, 13, 300, 300, 300] {
            let bytes = pool.take(count)
            #expect(bytes.count == count)
            taken.append(bytes)
        }
        // Two 16-byte windows of random bytes are equal by chance with probability 2⁻¹²⁸: a repeat is a reuse.
        var seen: Set<[UInt8]> = []
        for bytes in taken {
            for start in stride(from: 0, to: bytes.count - 15, by: 16) {
                #expect(seen.insert(Array(bytes[start..<(start + 16)])).inserted)
            }
        }
    }
}

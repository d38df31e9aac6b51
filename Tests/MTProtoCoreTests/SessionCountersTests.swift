import MTProtoCore
import Testing

@Suite struct MessageIdGeneratorTests {
    @Test func idsIncreaseAndKeepTheirRemainder() {
        var generator = MessageIdGenerator()
        var last: Int64 = 0
        for step in 0..<1000 {
            let now = 1_700_000_000 + Double(step / 10) * 0.001  // ten ids per millisecond, same instant repeated
            for kind in [MessageIdGenerator.Kind.client, .serverResponse, .serverInitiated] {
                let id = generator.next(kind, now: now)
                #expect(id > last)
                #expect(id & 3 == (kind == .client ? 0 : kind == .serverResponse ? 1 : 3))
                last = id
            }
        }
    }

    @Test func idEncodesTheServerCorrectedTime() {
        var generator = MessageIdGenerator(timeOffset: 100)
        let id = generator.next(.client, now: 1_700_000_000.25)
        #expect(id >> 32 == 1_700_000_100)
        #expect(abs(MessageIdGenerator.time(of: id) - 1_700_000_100.25) < 0.000_001)
        generator.synchronize(serverMessageId: Int64(1_700_000_500) << 32 | 1, now: 1_700_000_000)
        #expect(generator.timeOffset == 500)
    }

    @Test func aClockThatGoesBackStillGivesIncreasingIds() {
        var generator = MessageIdGenerator()
        let first = generator.next(.client, now: 2_000_000_000)
        let second = generator.next(.client, now: 1_999_999_000)
        #expect(second > first && second & 3 == 0)
    }
}

@Suite struct SequenceNumbersTests {
    @Test func contentMessagesAreOddAndCounted() {
        var numbers = SequenceNumbers()
        let seq = [true, false, true, true, false, false, true].map { numbers.next(contentRelated: $0) }
        #expect(seq == [1, 2, 3, 5, 6, 6, 7])
        #expect(numbers.contentMessages == 4)
    }
}

@Suite struct MessageIdValidatorTests {
    static let now: Double = 1_700_000_000
    static func id(_ time: Double, remainder: Int64) -> Int64 {
        (Int64(time) << 32) + Int64((time - time.rounded(.down)) * 4_294_967_296) / 4 * 4 + remainder
    }

    @Test func windowDuplicatesAndParity() {
        var validator = MessageIdValidator(peer: .server)
        #expect(validator.accept(Self.id(Self.now, remainder: 1), seqNo: 0, now: Self.now) == nil)
        #expect(validator.accept(Self.id(Self.now, remainder: 1), seqNo: 0, now: Self.now) == .duplicate)
        #expect(validator.accept(Self.id(Self.now - 301, remainder: 1), seqNo: 0, now: Self.now) == .tooOld)
        #expect(validator.accept(Self.id(Self.now + 31, remainder: 3), seqNo: 0, now: Self.now) == .tooNew)
        #expect(validator.accept(Self.id(Self.now - 299, remainder: 3), seqNo: 0, now: Self.now) == nil)
        #expect(validator.accept(Self.id(Self.now, remainder: 0) + 4, seqNo: 0, now: Self.now) == .wrongParity)
        var server = MessageIdValidator(peer: .client)
        #expect(server.accept(Self.id(Self.now, remainder: 1), seqNo: 0, now: Self.now) == .wrongParity)
        #expect(server.accept(Self.id(Self.now, remainder: 0), seqNo: 0, now: Self.now) == nil)
    }

    /// A peer's seq_no of Int32.max next to other messages is checked, not trapped on (found by the fuzz pass of
    /// `server-session` with 20,000 mutations).
    @Test func theLargestSeqNoIsCheckedWithoutOverflow() {
        var validator = MessageIdValidator(peer: .server)
        #expect(validator.accept(Self.id(Self.now, remainder: 1), seqNo: .max, now: Self.now) == nil)
        #expect(validator.accept(Self.id(Self.now, remainder: 1) + 8, seqNo: 3, now: Self.now) == .seqNoTooLow)
        #expect(validator.accept(Self.id(Self.now, remainder: 1) - 8, seqNo: .max, now: Self.now) == .seqNoTooHigh)
    }

    @Test func memoryStaysBoundedAndOldIdsAreStillRefused() {
        var validator = MessageIdValidator(peer: .client, capacity: 64)
        var ids: [Int64] = []
        for i in 0..<10_000 {
            let id = Self.id(Self.now + Double(i) * 0.0001, remainder: 0)
            ids.append(id)
            #expect(validator.accept(id, seqNo: 0, now: Self.now) == nil)
            #expect(validator.count <= 64)
        }
        #expect(validator.count == 64)
        // Every id ever accepted is refused again, whether remembered or older than all remembered ones.
        for id in ids.shuffled().prefix(500) { #expect(validator.accept(id, seqNo: 0, now: Self.now) == .duplicate) }
    }

    /// MTProto §Message Sequence Number: seq_no = 2 × (content-related messages before) + 1 if content-related, so
    /// along msg_ids it never falls, and rises past every odd (content-related) one.
    @Test func seqNoMustFitTheMessagesAroundIt() {
        var validator = MessageIdValidator(peer: .server)
        let a = Self.id(Self.now, remainder: 1)
        let b = Self.id(Self.now + 1, remainder: 1)
        let c = Self.id(Self.now + 2, remainder: 1)
        #expect(validator.accept(a, seqNo: 5, now: Self.now) == nil)  // content-related
        #expect(validator.accept(c, seqNo: 8, now: Self.now) == nil)  // an ack after two more content messages
        // b lies between them: after an odd 5 it needs ≥ 6; before 8 it may be 7 at most (odd 7 → 8 ≥ 8).
        var copy = validator
        #expect(copy.accept(b, seqNo: 5, now: Self.now) == .seqNoTooLow)
        copy = validator
        #expect(copy.accept(b, seqNo: 9, now: Self.now) == .seqNoTooHigh)
        copy = validator
        #expect(copy.accept(b, seqNo: 8, now: Self.now) == nil)  // even: an ack may share the next message's count
        #expect(validator.accept(b, seqNo: 7, now: Self.now) == nil)
        // A second content-related message with the same seq_no is refused (it would be 7 twice).
        #expect(validator.accept(Self.id(Self.now + 1.5, remainder: 1), seqNo: 7, now: Self.now) == .seqNoTooLow)
        #expect(MessageIdValidator.Rejection.seqNoTooLow.notificationCode == 32)
        #expect(MessageIdValidator.Rejection.seqNoTooHigh.notificationCode == 33)
    }

    /// A peer that starts its session afresh (`new_session_created`) counts seq_nos from 0 again: after
    /// `startNewSequence` they are compared only with the new sequence's, while every id stays a duplicate.
    @Test func aNewSequenceIsComparedOnlyWithItself() {
        var validator = MessageIdValidator(peer: .server)
        let a = Self.id(Self.now, remainder: 1)
        let b = Self.id(Self.now + 1, remainder: 1)
        let c = Self.id(Self.now + 2, remainder: 1)
        #expect(validator.accept(a, seqNo: 9, now: Self.now) == nil)
        var copy = validator
        #expect(copy.accept(b, seqNo: 1, now: Self.now) == .seqNoTooLow)
        validator.startNewSequence()
        #expect(validator.accept(b, seqNo: 1, now: Self.now) == nil)
        #expect(validator.accept(a, seqNo: 9, now: Self.now) == .duplicate)
        // Within the new sequence the rule holds again: after an odd 1 comes at least 2.
        copy = validator
        #expect(copy.accept(c, seqNo: 1, now: Self.now) == .seqNoTooLow)
        #expect(validator.accept(c, seqNo: 3, now: Self.now) == nil)
    }

    @Test func notificationsMaySkipTheTimeWindowButNotDuplicatesOrParity() {
        var validator = MessageIdValidator(peer: .server)
        let old = Self.id(Self.now - 1000, remainder: 1)
        #expect(validator.accept(old, seqNo: 0, now: Self.now) == .tooOld)
        #expect(validator.accept(old, seqNo: 0, now: Self.now, checkTime: false) == nil)
        #expect(validator.accept(old, seqNo: 0, now: Self.now, checkTime: false) == .duplicate)
        #expect(validator.accept(old + 3, seqNo: 0, now: Self.now, checkTime: false) == .wrongParity)
    }
}

@Suite struct ServerSaltStoreTests {
    @Test func picksTheSaltValidNowAndFallsBack() {
        var store = ServerSaltStore(initial: 42)
        #expect(store.current(now: 1000) == 42)
        store.add([.init(validSince: 900, validUntil: 1100, salt: 1), .init(validSince: 1100, validUntil: 1300, salt: 2)], now: 1000)
        #expect(store.current(now: 1000) == 1)
        #expect(store.current(now: 1200) == 2)
        #expect(store.current(now: 1400) == 42)
        #expect(store.needsMoreSalts(now: 1000, minimumAhead: 600))
        #expect(!store.needsMoreSalts(now: 1000, minimumAhead: 200))
        store.reset(to: 7)
        #expect(store.current(now: 1000) == 7)
    }
}

@Suite struct AckQueueTests {
    @Test func batchesWithoutDuplicates() {
        var queue = AckQueue()
        for id in [4, 8, 4, 12] as [Int64] { queue.add(id) }
        #expect(queue.take() == [4, 8, 12])
        #expect(queue.count == 0)
        for id in 0..<Int64(AckQueue.maximumBatch + 5) { queue.add(id * 4) }
        #expect(queue.take().count == AckQueue.maximumBatch)
        #expect(queue.take().count == 5)
        // Out of order (a container's children, a re-sent message): an id queued earlier is still not queued twice.
        var mixed = AckQueue()
        for id in [40, 20, 40, 30, 20, 44, 30] as [Int64] { mixed.add(id) }
        #expect(mixed.take() == [40, 20, 30, 44])
    }
}

import MTProtoTransport
import NIOCore
import Testing

/// Every framing, both directions: what one side encodes the other decodes, whole or fed a byte at a time.
@Suite struct FrameCodecTests {
    static let framings = TransportFraming.allCases

    static func payload(_ length: Int, seed: UInt8 = 1) -> ByteBuffer {
        ByteBuffer(bytes: (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    /// Encodes with `sender`, decodes with `receiver`, feeding `chunk` bytes at a time.
    static func transfer(
        _ frames: [TransportFrame], _ framing: TransportFraming, from sender: TransportRole, chunk: Int = .max
    ) throws -> [TransportFrame] {
        var encoder = makeFrameCodec(framing, role: sender)
        var decoder = makeFrameCodec(framing, role: sender == .client ? .server : .client)
        var wire = ByteBuffer()
        for frame in frames { try encoder.encode(frame, into: &wire) }
        var received: [TransportFrame] = []
        var pending = ByteBuffer()
        while wire.readableBytes > 0 {
            var piece = wire.readSlice(length: min(chunk, wire.readableBytes))!
            pending.writeBuffer(&piece)
            while let frame = try decoder.decode(&pending) { received.append(frame) }
        }
        #expect(pending.readableBytes == 0)
        return framing == .paddedIntermediate ? zip(received, frames).map(Self.stripPadding) : received
    }

    /// Padded intermediate cannot delimit its padding (the MTProto layer does, from the packet's own lengths): the
    /// codec strips `length % 4`, and up to 12 more bytes may remain. Checks that the sent payload is a prefix with
    /// at most 15 bytes of padding after it, and returns the frame as sent.
    static func stripPadding(_ received: TransportFrame, _ sent: TransportFrame) -> TransportFrame {
        guard case .packet(let got, let quickAck) = received, case .packet(let want, _) = sent else { return received }
        let extra = got.readableBytes - want.readableBytes
        guard extra >= 0, extra <= TransportLimits.maximumPadding, extra % 4 == 0,
            got.getSlice(at: got.readerIndex, length: want.readableBytes) == want
        else { return received }
        return .packet(want, quickAckRequested: quickAck)
    }

    @Test(arguments: framings)
    func packetsRoundTripBothWays(_ framing: TransportFraming) throws {
        // 4 bytes, the one-byte abridged maximum (126 words), its first long length (127 words), and a large one.
        let lengths = [4, 8, 504, 508, 512, 4096, 1 << 18]
        let frames = lengths.enumerated().map { TransportFrame.packet(Self.payload($1, seed: UInt8($0))) }
        for role in [TransportRole.client, .server] {
            let received = try Self.transfer(frames, framing, from: role)
            #expect(received == frames, "\(framing) from \(role)")
        }
    }

    @Test(arguments: framings)
    func byteAtATimeDecodingSeesTheSameFrames(_ framing: TransportFraming) throws {
        let frames = [4, 516, 12].map { TransportFrame.packet(Self.payload($0)) }
        #expect(try Self.transfer(frames, framing, from: .client, chunk: 1) == frames)
        #expect(try Self.transfer(frames, framing, from: .server, chunk: 3) == frames)
    }

    @Test(arguments: framings)
    func quickAckRequestAndAnswer(_ framing: TransportFraming) throws {
        let request = TransportFrame.packet(Self.payload(64), quickAckRequested: true)
        let received = try Self.transfer([request], framing, from: .client)
        // The full framing has no request bit; the others carry it to the server.
        #expect(received == [.packet(Self.payload(64), quickAckRequested: framing != .full)])
        let answer = try Self.transfer([.quickAck(0x1234_5678), .packet(Self.payload(8))], framing, from: .server)
        #expect(answer == [.quickAck(0x1234_5678), .packet(Self.payload(8))])
    }

    @Test(arguments: framings)
    func transportErrorsReachTheClient(_ framing: TransportFraming) throws {
        let received = try Self.transfer([.transportError(-404), .transportError(-429)], framing, from: .server)
        #expect(received == [.transportError(-404), .transportError(-429)])
    }

    @Test func abridgedLengthBytesAreAsSpecified() throws {
        var codec = AbridgedCodec(role: .client)
        var out = ByteBuffer()
        try codec.encode(.packet(Self.payload(8)), into: &out)
        #expect(out.getBytes(at: 0, length: 1) == [2])
        out.clear()
        try codec.encode(.packet(Self.payload(127 * 4)), into: &out)
        #expect(out.getBytes(at: 0, length: 4) == [0x7f, 127, 0, 0])
        out.clear()
        try codec.encode(.packet(Self.payload(8), quickAckRequested: true), into: &out)
        #expect(out.getBytes(at: 0, length: 1) == [0x82])
    }

    @Test func fullEnvelopeMatchesTheSpec() throws {
        var codec = FullCodec(role: .client)
        var out = ByteBuffer()
        try codec.encode(.packet(ByteBuffer(bytes: [1, 2, 3, 4])), into: &out)
        try codec.encode(.packet(ByteBuffer(bytes: [5, 6, 7, 8])), into: &out)
        // total length 16, seq 0, payload, CRC-32 of the first 12 bytes; then seq 1.
        #expect(out.getBytes(at: 0, length: 12) == [16, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4])
        #expect(out.getInteger(at: 12, endianness: .little, as: UInt32.self) == 0xE0B5_0F42)
        #expect(out.getInteger(at: 20, endianness: .little, as: Int32.self) == 1)
    }
}

/// Hostile and broken streams: each is refused with the right error, before anything is allocated for it.
@Suite struct FrameCodecRejectionTests {
    static func decode(_ bytes: [UInt8], _ framing: TransportFraming, role: TransportRole = .server) -> Result<
        TransportFrame?, TransportError
    > {
        var codec = makeFrameCodec(framing, role: role)
        var buffer = ByteBuffer(bytes: bytes)
        do {
            return .success(try codec.decode(&buffer))
        } catch {
            return .failure(error)
        }
    }

    @Test func hugeLengthPrefixesAreRefusedAtOnce() {
        #expect(Self.decode([0x7f, 0xff, 0xff, 0x7f], .abridged) == .failure(.packetTooLarge(claimed: 0x7f_ffff * 4)))
        #expect(Self.decode([0xff, 0xff, 0xff, 0x7f], .intermediate) == .failure(.packetTooLarge(claimed: 0x7fff_ffff)))
        #expect(Self.decode([0, 0, 0, 0x10, 0, 0, 0, 0], .full) == .failure(.packetTooLarge(claimed: 0x1000_0000)))
    }

    @Test func zeroAndMisalignedLengthsAreInvalid() {
        #expect(Self.decode([0x00], .abridged) == .failure(.invalidLength(0)))
        #expect(Self.decode([0, 0, 0, 0], .intermediate) == .failure(.invalidLength(0)))
        #expect(Self.decode([5, 0, 0, 0], .intermediate) == .failure(.invalidLength(5)))
        #expect(Self.decode([8, 0, 0, 0, 0, 0, 0, 0], .full) == .failure(.invalidLength(8)))
        #expect(Self.decode([0xf0, 0xff, 0xff, 0xff, 0, 0, 0, 0], .full) == .failure(.invalidLength(-16)))
    }

    @Test func fullFramingChecksCRCAndSequence() throws {
        var codec = FullCodec(role: .client)
        var wire = ByteBuffer()
        try codec.encode(.packet(ByteBuffer(bytes: [1, 2, 3, 4])), into: &wire)
        var corrupted = Array(wire.readableBytesView)
        corrupted[9] ^= 0x01
        let flipped = Self.decode(corrupted, .full)
        guard case .failure(.checksumMismatch) = flipped else {
            Issue.record("a flipped payload bit was accepted: \(flipped)")
            return
        }
        var second = FullCodec(role: .client)
        var skip = ByteBuffer()
        try second.encode(.packet(ByteBuffer(bytes: [1, 2, 3, 4])), into: &skip)
        skip.clear()
        try second.encode(.packet(ByteBuffer(bytes: [1, 2, 3, 4])), into: &skip)  // seq 1 without seq 0
        #expect(Self.decode(Array(skip.readableBytesView), .full) == .failure(.sequenceMismatch(expected: 0, actual: 1)))
    }

    @Test(arguments: TransportFraming.allCases)
    func oversizedOutgoingPacketsAreRefusedNotWrapped(_ framing: TransportFraming) throws {
        // 2^24 words would wrap the abridged length to 0; every framing refuses past the packet limit instead.
        var codec = makeFrameCodec(framing, role: .client)
        var out = ByteBuffer()
        let huge = ByteBuffer(repeating: 0, count: TransportLimits.maximumPacketLength + 4)
        #expect(throws: TransportError.outgoingPacketTooLarge(huge.readableBytes)) {
            try codec.encode(.packet(huge), into: &out)
        }
        #expect(out.readableBytes == 0)
        // A payload that is not whole 4-byte words is refused too (abridged would drop its tail).
        #expect(throws: TransportError.invalidLength(6)) { try codec.encode(.packet(ByteBuffer(bytes: [1, 2, 3, 4, 5, 6])), into: &out) }
        // The largest allowed packet still goes out, with its exact length.
        let largest = ByteBuffer(repeating: 7, count: TransportLimits.maximumPacketLength)
        try codec.encode(.packet(largest), into: &out)
        #expect(out.readableBytes >= largest.readableBytes)
    }

    @Test func truncatedFramesWaitForMoreBytes() {
        #expect(Self.decode([2, 1, 2, 3], .abridged) == .success(nil))
        #expect(Self.decode([8, 0, 0, 0, 1], .intermediate) == .success(nil))
        #expect(Self.decode([16, 0, 0], .full) == .success(nil))
    }

    /// Padded intermediate's padding: up to 15 bytes from a client, at most 3 from a server (Telegram's own MTProxy
    /// pads `lrand48() & 3`, and Telethon strips exactly `length % 4`), so a server's frame always reads back whole.
    @Test func serversPadWithAtMostThreeBytes() throws {
        for (role, limit) in [(TransportRole.server, 3), (.client, 15)] {
            var codec = IntermediateCodec(role: role, padded: true)
            var seen = Set<Int>()
            for _ in 0..<400 {
                var out = ByteBuffer()
                try codec.encode(.packet(FrameCodecTests.payload(64), quickAckRequested: false), into: &out)
                seen.insert(out.readableBytes - 4 - 64)
            }
            #expect(seen.max() == limit, "\(role): paddings \(seen.sorted())")
            #expect(seen.min() == 0)
        }
    }
}

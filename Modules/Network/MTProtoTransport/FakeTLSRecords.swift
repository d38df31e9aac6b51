/// TLS records as fake-TLS carries MTProto after the hellos (RFC 8446 §5.1's `TLSPlaintext` framing; the payload is
/// the obfuscated2 stream, not TLS ciphertext): application-data records (`17 03 03` and a 2-byte length) each way,
/// and one ChangeCipherSpec (`14 03 03 00 01 01`) at the start of the client's stream, as a TLS 1.3 client in
/// middlebox-compatibility mode sends it.
public enum FakeTLSRecords {
    /// The largest payload a record may claim (2^14 and 256 bytes of expansion, RFC 8446 §5.2).
    public static let maximumPayload = 16_384 + 256
    /// What Telegram's clients put in one record (TDLib's `MAX_TLS_PACKET_LENGTH`).
    public static let clientRecordPayload = 2_878
    /// The ChangeCipherSpec record a client sends first.
    public static let changeCipherSpec: [UInt8] = [0x14, 0x03, 0x03, 0x00, 0x01, 0x01]

    /// Why the record stream is not fake-TLS.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// A record that is neither application data nor the one-byte ChangeCipherSpec.
        case unexpectedRecord(header: [UInt8])
        /// A record longer than TLS allows.
        case recordTooLong(Int)

        public var description: String {
            switch self {
            case .unexpectedRecord(let header): return "unexpected TLS record \(header)"
            case .recordTooLong(let length): return "TLS record of \(length) bytes (the limit is \(maximumPayload))"
            }
        }
    }

    /// `payload` cut into application-data records of at most `chunk` bytes each.
    public static func wrap(_ payload: [UInt8], chunk: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(payload.count + (payload.count / max(chunk, 1) + 1) * 5)
        var start = 0
        while start < payload.count {
            let end = min(start + chunk, payload.count)
            out += [0x17, 0x03, 0x03, UInt8((end - start) >> 8), UInt8((end - start) & 0xff)]
            out += payload[start..<end]
            start = end
        }
        return out
    }

    /// Takes records in as bytes arrive and gives their payloads out; a ChangeCipherSpec is skipped. Holds at most
    /// one incomplete record.
    public struct Reader: Sendable {
        private var buffer: [UInt8] = []

        public init() {}

        /// Appends what arrived and returns every whole record's payload, in order.
        public mutating func receive(_ bytes: some Collection<UInt8>) throws(Failure) -> [UInt8] {
            buffer += bytes
            var payload: [UInt8] = []
            var offset = 0
            while buffer.count - offset >= 5 {
                let header = Array(buffer[offset..<(offset + 5)])
                let length = Int(header[3]) << 8 | Int(header[4])
                guard length <= maximumPayload else { throw .recordTooLong(length) }
                let isData = header[0...2].elementsEqual([0x17, 0x03, 0x03])
                let isChangeCipherSpec = header.elementsEqual(changeCipherSpec[0..<5])
                guard isData || isChangeCipherSpec else { throw .unexpectedRecord(header: header) }
                guard buffer.count - offset >= 5 + length else { break }
                if isData { payload += buffer[(offset + 5)..<(offset + 5 + length)] }
                offset += 5 + length
            }
            buffer.removeFirst(offset)
            return payload
        }
    }
}

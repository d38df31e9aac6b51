import MTProtoApi
import TLRuntime
import TLSchema
import TelegramApi
import TestVectors
import Testing

/// A short fixed-seed fuzz run of the generated decoders (the long run is `make fuzz`, under libFuzzer): seeded
/// mutations of valid encodings must parse or throw `TLDecodingError`, never trap, never hang.
@Suite struct DecoderFuzzTests {
    static let knownIds: [UInt32] = Array(Api.constructorNames.keys.sorted().prefix(64)) + [0x1cb5_c415, 0x3072_cfa1]

    static func mutate(_ input: [UInt8], _ rng: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + rng.int(0..<3)) {
            if bytes.isEmpty { bytes = rng.bytes(8) }
            let position = rng.int(0..<bytes.count)
            switch rng.int(0..<8) {
            case 0: bytes[position] ^= 1 << UInt8(rng.int(0..<8))
            case 1: bytes[position] = [0x00, 0xff, 0xfe, 0x7f, 0x80][rng.int(0..<5)]
            case 2: bytes = Array(bytes[0..<position])
            case 3: bytes.insert(contentsOf: rng.bytes(4), at: position)
            case 4: bytes.removeSubrange(position..<min(bytes.count, position + rng.int(1..<9)))
            case 5:
                let aligned = position & ~3
                if aligned + 4 <= bytes.count {
                    let id = knownIds[rng.int(0..<knownIds.count)]
                    withUnsafeBytes(of: id.littleEndian) { bytes.replaceSubrange(aligned..<aligned + 4, with: $0) }
                }
            case 6:
                let aligned = position & ~3
                if aligned + 4 <= bytes.count {
                    let count = [UInt32(0x7fff_ffff), 0xffff_ffff, 0x0100_0000, 0xfffe][rng.int(0..<4)]
                    withUnsafeBytes(of: count.littleEndian) { bytes.replaceSubrange(aligned..<aligned + 4, with: $0) }
                }
            default:
                let start = rng.int(0..<bytes.count)
                bytes += bytes[start..<min(bytes.count, start + 32)]
            }
        }
        return bytes
    }

    @Test func mutatedApiObjectsNeverTrap() {
        let schema = Repository.apiSchema
        var encoder = RandomTLEncoder(schema: schema, seed: 0xF022)
        var rng = SeededGenerator(seed: 0xF022)
        var outcomes = (parsed: 0, rejected: 0)
        let combinators = schema.constructors + schema.functions
        for round in 0..<4000 {
            let combinator = combinators[rng.int(0..<combinators.count)]
            var valid: [UInt8] = []
            encoder.encodeBoxed(combinator, depth: 0, into: &valid)
            let input = round % 10 == 9 ? rng.bytes(rng.int(0..<64)) : Self.mutate(valid, &rng)
            var reader = TLReader(input)
            do {
                if combinator.isFunction {
                    _ = try Api.functions.parse(&reader)
                } else {
                    let value = try Api.parseObject(&reader)
                    _ = value.serialized()
                }
                outcomes.parsed += 1
            } catch {
                outcomes.rejected += 1
            }
        }
        #expect(outcomes.parsed + outcomes.rejected == 4000)
        #expect(outcomes.rejected > 1000 && outcomes.parsed > 100)
    }

    @Test func mutatedMTProtoObjectsNeverTrap() {
        var encoder = RandomTLEncoder(schema: Repository.mtprotoSchema, seed: 7)
        encoder.stringsAsBytes = true
        var rng = SeededGenerator(seed: 7)
        let constructors = Repository.mtprotoSchema.constructors
        var rejected = 0
        for _ in 0..<1500 {
            let combinator = constructors[rng.int(0..<constructors.count)]
            var valid: [UInt8] = []
            encoder.encodeBoxed(combinator, depth: 0, into: &valid)
            var reader = TLReader(Self.mutate(valid, &rng))
            do { _ = try MTProto.parseObject(&reader) } catch { rejected += 1 }
        }
        #expect(rejected > 300)
    }
}

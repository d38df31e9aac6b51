/// A small deterministic mutator for the fixed-seed pass of `make test` (libFuzzer does the real search in
/// `make fuzz`): bit flips, byte changes, interesting 32-bit values (lengths and counts at their limits), inserted
/// and deleted runs, truncation, and splices of two seeds.
public struct FuzzMutator<Generator: RandomNumberGenerator> {
    public var generator: Generator
    public let maximumLength: Int

    public init(generator: Generator, maximumLength: Int) {
        self.generator = generator
        self.maximumLength = maximumLength
    }

    /// Values that sit on the edges of length and count checks.
    static var interesting: [UInt32] {
        [
            0, 1, 0x7f, 0x80, 0xfe, 0xff, 0x100, 0xfffe, 0xffff, 0x1_0000, 0x7fff_ffff, 0x8000_0000, 0xffff_fffe,
            0xffff_ffff, 1 << 24, (1 << 24) - 1, 1020, 1021, 1024, 8192, 8193,
        ]
    }

    /// A mutation of `input`, with `other` for splicing.
    public mutating func mutate(_ input: [UInt8], splicingWith other: [UInt8]) -> [UInt8] {
        var bytes = input
        let rounds = Int.random(in: 1...4, using: &generator)
        for _ in 0..<rounds {
            switch Int.random(in: 0..<7, using: &generator) {
            case 0 where !bytes.isEmpty:
                let i = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[i] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
            case 1 where !bytes.isEmpty:
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            case 2 where bytes.count >= 4:
                let i = Int.random(in: 0...(bytes.count - 4), using: &generator)
                let value = Self.interesting.randomElement(using: &generator)!
                for k in 0..<4 { bytes[i + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(k))) }
            case 3:
                let i = Int.random(in: 0...bytes.count, using: &generator)
                let run = (0..<Int.random(in: 1...16, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
                bytes.insert(contentsOf: run, at: i)
            case 4 where !bytes.isEmpty:
                let i = Int.random(in: 0..<bytes.count, using: &generator)
                bytes.removeSubrange(i..<min(bytes.count, i + Int.random(in: 1...16, using: &generator)))
            case 5 where !bytes.isEmpty:
                bytes.removeLast(Int.random(in: 0..<bytes.count, using: &generator))
            case 6 where !other.isEmpty:
                let cut = Int.random(in: 0...bytes.count, using: &generator)
                let from = Int.random(in: 0..<other.count, using: &generator)
                bytes = Array(bytes[..<cut]) + other[from...]
            default:
                break
            }
        }
        return bytes.count > maximumLength ? Array(bytes.prefix(maximumLength)) : bytes
    }
}

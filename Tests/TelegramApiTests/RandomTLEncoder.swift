import TLSchema
import TestVectors

/// Writes random, well-formed TL encodings of any constructor or function of a schema, driven by the schema
/// itself (not by the generated code): random flag subsets, vectors of 0–3 elements, strings of 0–300 UTF-8 bytes
/// around the 253/254 length boundary, nested objects down to a depth limit.
struct RandomTLEncoder {
    let schema: TLSchema
    var rng: SeededGenerator
    let constructorsByType: [String: [TLCombinator]]
    let constructorsByName: [String: TLCombinator]
    /// Per type, how deep the shallowest value goes (to end recursion).
    let depthCost: [String: Int]
    let maxDepth = 5
    /// When set, `string` is written as random bytes (mtproto.tl's binary strings).
    var stringsAsBytes = false
    /// When set, `long`s are non-negative (Telethon's client-side Message rewrites negative "marked" peer ids).
    var nonNegativeLongs = false

    init(schema: TLSchema, seed: UInt64) {
        self.schema = schema
        rng = SeededGenerator(seed: seed)
        var byType: [String: [TLCombinator]] = [:]
        var byName: [String: TLCombinator] = [:]
        for c in schema.constructors {
            byType[c.result.name, default: []].append(c)
            byName[c.name] = c
        }
        constructorsByType = byType
        constructorsByName = byName
        var cost: [String: Int] = [:]
        var changed = true
        while changed {
            changed = false
            for (type, constructors) in byType {
                let best = constructors.compactMap { Self.cost($0, cost, byName) }.min()
                if let best, best < cost[type] ?? Int.max {
                    cost[type] = best
                    changed = true
                }
            }
        }
        depthCost = cost
    }

    private static func cost(_ c: TLCombinator, _ table: [String: Int], _ byName: [String: TLCombinator]) -> Int? {
        var worst = 0
        for p in c.parameters {
            guard case .plain(let ref) = p.type else { continue }
            switch TLTypeKind(ref) {
            case .boxed(let name):
                guard let value = table[name] else { return nil }
                worst = max(worst, value)
            default: break
            }
        }
        return worst + 1
    }

    mutating func write32(_ value: UInt32, _ out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    mutating func writeBytes(_ value: [UInt8], _ out: inout [UInt8]) {
        let header: Int
        if value.count < 254 {
            out.append(UInt8(value.count))
            header = 1
        } else {
            out += [254, UInt8(value.count & 0xff), UInt8(value.count >> 8 & 0xff), UInt8(value.count >> 16)]
            header = 4
        }
        out += value
        out += [UInt8](repeating: 0, count: (4 - (header + value.count) % 4) % 4)
    }

    mutating func randomLength() -> Int {
        [0, 1, 2, 3, 4, 5, 252, 253, 254, 255, 300, rng.int(0..<40), rng.int(0..<40), rng.int(0..<40)][rng.int(0..<14)]
    }

    mutating func randomUTF8(_ length: Int) -> [UInt8] {
        let pieces: [[UInt8]] = [Array("a".utf8), Array("Z".utf8), Array("é".utf8), Array("ở".utf8), Array("👋".utf8),
                                 Array(" ".utf8), Array("7".utf8)]
        var out: [UInt8] = []
        while out.count < length {
            let piece = pieces[rng.int(0..<pieces.count)]
            out += out.count + piece.count <= length ? piece : Array("x".utf8)
        }
        return out
    }

    /// A constructor with its id, then its fields.
    mutating func encodeBoxed(_ c: TLCombinator, depth: Int, into out: inout [UInt8]) {
        write32(c.id, &out)
        encodeFields(c, depth: depth, into: &out)
    }

    mutating func encodeFields(_ c: TLCombinator, depth: Int, into out: inout [UInt8]) {
        var flags: [String: UInt32] = [:]
        let variables = Set(c.typeParameters.map(\.name))
        for p in c.parameters {
            switch p.type {
            case .flags:
                var word: UInt32 = 0
                for q in c.parameters {
                    if case .conditional(let field, let bit, _) = q.type, field == p.name, rng.int(0..<2) == 1 {
                        word |= 1 << bit
                    }
                }
                flags[p.name] = word
                write32(word, &out)
            case .plain(let ref):
                encode(TLTypeKind(ref, typeVariables: variables, schema: schema), depth: depth, into: &out)
            case .conditional(let field, let bit, let ref):
                if (flags[field] ?? 0) & (1 << bit) != 0 {
                    encode(TLTypeKind(ref, typeVariables: variables, schema: schema), depth: depth, into: &out)
                }
            }
        }
    }

    mutating func encode(_ kind: TLTypeKind, depth: Int, into out: inout [UInt8]) {
        switch kind {
        case .int: write32(UInt32(truncatingIfNeeded: rng.next()), &out)
        case .long:
            var value = rng.bytes(8)
            if nonNegativeLongs { value[7] &= 0x7f }
            out += value
        case .double:
            let value = Double(rng.int(-1_000_000..<1_000_000)) / 8
            withUnsafeBytes(of: value.bitPattern.littleEndian) { out.append(contentsOf: $0) }
        case .string:
            let length = randomLength()
            writeBytes(stringsAsBytes ? rng.bytes(length) : randomUTF8(length), &out)
        case .bytes: writeBytes(rng.bytes(randomLength()), &out)
        case .int128: out += rng.bytes(16)
        case .int256: out += rng.bytes(32)
        case .bool: write32(rng.int(0..<2) == 1 ? 0x9972_75b5 : 0xbc79_9737, &out)
        case .trueFlag: break
        case .vector(let element, let boxed):
            let count = depth >= maxDepth ? 0 : rng.int(0..<4)
            if boxed { write32(0x1cb5_c415, &out) }
            write32(UInt32(count), &out)
            for _ in 0..<count { encode(element, depth: depth + 1, into: &out) }
        case .boxed(let name):
            let options = constructorsByType[name] ?? []
            let choice: TLCombinator
            if depth >= maxDepth {
                let best = options.min { (Self.cost($0, depthCost, constructorsByName) ?? Int.max) < (Self.cost($1, depthCost, constructorsByName) ?? Int.max) }
                choice = best!
            } else {
                choice = options[rng.int(0..<options.count)]
            }
            encodeBoxed(choice, depth: depth + 1, into: &out)
        case .bare(let constructor):
            encodeFields(constructorsByName[constructor]!, depth: depth + 1, into: &out)
        case .typeVariable:
            // The query of a generic wrapper: a simple call (help.getConfig / ping) stands in for any function.
            let simple = schema.functions.first { $0.name == "help.getConfig" } ?? schema.functions.first { $0.parameters.isEmpty }!
            encodeBoxed(simple, depth: depth + 1, into: &out)
        }
    }
}

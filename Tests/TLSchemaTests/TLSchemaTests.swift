import Foundation
import TLSchema
import TestVectors
import Testing

enum SchemaFiles {
    static func text(_ name: String) throws -> String {
        try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Schemas/tl/\(name)"), encoding: .utf8)
    }
}

@Suite struct TLSchemaTests {
    @Test func parsesLayer229() throws {
        let schema = try TLSchema(parsing: try SchemaFiles.text("api.tl"))
        #expect(schema.layer == 229)
        #expect(schema.constructors.count == 1652)
        #expect(schema.functions.count == 813)
        let allExplicit = schema.constructors.allSatisfy { $0.hasExplicitId }
        #expect(allExplicit)
        let user = try #require(schema.constructor(named: "user"))
        #expect(user.id == 0xb1b8_cc83)
        // Two flag words, conditionals referring to each.
        let words = user.parameters.filter { parameter -> Bool in
            if case .flags = parameter.type { return true }
            return false
        }
        #expect(words.map(\.name) == ["flags", "flags2"])
        let invoke = try #require(schema.functions.first { $0.name == "invokeWithLayer" })
        #expect(invoke.id == 0xda9b_0d0d)
        #expect(invoke.typeParameters.map(\.name) == ["X"])
        guard case .plain(let query) = invoke.parameters.last?.type else { Issue.record("no query"); return }
        #expect(query.isBang && query.name == "X")
        #expect(invoke.result.name == "X")
        let getHistory = try #require(schema.functions.first { $0.name == "messages.getHistory" })
        #expect(getHistory.namespace == "messages" && getHistory.shortName == "getHistory")
        #expect(getHistory.result.name == "messages.Messages")
    }

    /// The CRC32 of the normalized declaration reproduces the written ids (TL §Combinator identifiers): every one
    /// of api.tl's 2,465; in mtproto.tl all but the three connectivity helpers whose ids predate their declarations.
    @Test func inferredIdsMatchExplicitIds() throws {
        let api = try TLSchema(parsing: try SchemaFiles.text("api.tl"))
        let mismatched = (api.constructors + api.functions).filter { $0.inferredId != $0.id }.map(\.name)
        #expect(mismatched == [])
        let secret = try TLSchema(parsing: try SchemaFiles.text("secret_api.tl"))
        #expect(secret.constructors.count > 60)
        #expect(secret.constructor(named: "boolFalse")?.id == 0xbc79_9737)  // `boolFalse = Bool;` has no written id
        let mtproto = try TLSchema(parsing: try SchemaFiles.text("mtproto.tl"))
        let mtprotoMismatched = (mtproto.constructors + mtproto.functions).filter { $0.inferredId != $0.id }
        #expect(Set(mtprotoMismatched.map(\.name)) == ["ipPortSecret", "accessPointRule", "help.configSimple"])
        #expect(mtproto.constructor(named: "resPQ")?.inferredId == 0x0516_2463)
        let hello = try #require(mtproto.constructor(named: "tlsClientHello"))
        #expect(!hello.hasExplicitId && hello.id == hello.inferredId)
    }

    @Test func bareAndGenericKinds() throws {
        let schema = try TLSchema(parsing: try SchemaFiles.text("mtproto.tl"))
        let salts = try #require(schema.constructor(named: "future_salts"))
        guard case .plain(let ref) = salts.parameters.last?.type else { Issue.record("no salts"); return }
        #expect(TLTypeKind(ref, schema: schema) == .vector(.bare(constructor: "future_salt"), boxed: false))
        let rule = try #require(schema.constructor(named: "accessPointRule"))
        guard case .plain(let ips) = rule.parameters.last?.type else { Issue.record("no ips"); return }
        #expect(TLTypeKind(ips, schema: schema) == .vector(.boxed("IpPort"), boxed: false))
        let percent = try TLSchema(parsing: "a#1 x:int = A;\nb#2 y:%A z:Vector<%A> = B;")
        guard case .plain(let y) = percent.constructors[1].parameters[0].type else { Issue.record("no y"); return }
        #expect(TLTypeKind(y, schema: percent) == .bare(constructor: "a"))
    }

    @Test func errorsCarryLineAndColumn() {
        func error(_ text: String) -> TLSchemaError? {
            do { _ = try TLSchema(parsing: text); return nil } catch { return error }
        }
        #expect(error("a#1 = A;\nb#2 x:flags.0?int = B;")?.location == TLSourceLocation(line: 2, column: 7))
        #expect(error("a#1 = A;\n  b#2 x:int = B")?.location.line == 2)  // missing ';'
        #expect(error("a#12345678z = A;")?.location == TLSourceLocation(line: 1, column: 11))
        #expect(error("a#1 f:# x:f.32?int = A;")?.message.contains("0...31") == true)
        #expect(error("a#1 x:int x:int = A;")?.message.contains("duplicate") == true)
        #expect(error("---typez---")?.location == TLSourceLocation(line: 1, column: 1))
        #expect(error("a#1 q:!X = X;")?.message.contains("type variable") == true)
        #expect(error("/* open") != nil)
        #expect(error("a#1 x:Vector<int = A;") != nil)
        #expect(error("a#1 x:int = A;\n// LAYER 7\n") == nil)
        #expect((try? TLSchema(parsing: "// LAYER 7\n"))?.layer == 7)
    }

    /// Seeded mutations of real schema text: the parser returns a schema or an error, never traps.
    @Test func mutatedSchemasNeverTrap() throws {
        let text = Array(try SchemaFiles.text("mtproto.tl").utf8)
        var state: UInt64 = 0x5eed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        let alphabet = Array("#:?{}<>!%;=.0123456789abcXYZ_ \n-/*".utf8)
        var errors = 0
        for _ in 0..<1500 {
            var bytes = text
            for _ in 0..<(1 + next() % 4) {
                let position = next() % bytes.count
                switch next() % 4 {
                case 0: bytes[position] = alphabet[next() % alphabet.count]
                case 1: bytes.remove(at: position)
                case 2: bytes.insert(alphabet[next() % alphabet.count], at: position)
                default: bytes = Array(bytes[0..<position])
                }
                if bytes.isEmpty { bytes = [0x61] }
            }
            do { _ = try TLSchema(parsing: String(decoding: bytes, as: UTF8.self)) } catch { errors += 1 }
        }
        #expect(errors > 100)
    }
}

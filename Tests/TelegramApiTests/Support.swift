import Foundation
import TLSchema
import TestVectors

/// The schemas of `Schemas/tl/`, parsed once per test process.
enum Repository {
    static let apiSchema = schema("api.tl")
    static let mtprotoSchema = schema("mtproto.tl")

    static func schema(_ name: String) -> TLSchema {
        let url = Fixtures.repositoryRoot.appendingPathComponent("Schemas/tl/\(name)")
        return try! TLSchema(parsing: String(contentsOf: url, encoding: .utf8))
    }
}

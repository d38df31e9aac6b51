import Foundation

/// Test data shipped in the repository (`Tests/Fixtures/vectors/`), found from this file's path.
enum Fixtures {
    static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    /// The JSON object of `Tests/Fixtures/vectors/<name>`.
    static func json(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/vectors/\(name)"))
        return try JSONSerialization.jsonObject(with: data) as! [String: Any]
    }
}

/// Bytes from hex (either case); traps on malformed test data.
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.utf8)
    precondition(digits.count % 2 == 0, "odd hex length")
    return stride(from: 0, to: digits.count, by: 2).map { i in
        UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16)!
    }
}

/// Lower-case hex of bytes.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// A seeded generator (SplitMix64) so that property tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) } }
}

/// One fuzz target: a decoder of untrusted bytes driven with arbitrary input. libFuzzer runs it through the `fuzz`
/// executable of the `Fuzz/` package (`make fuzz`), and `FuzzHarnessesTests` runs it on its committed seeds and a
/// fixed-seed set of mutations in `make test`, so both exercise the same code.
///
/// A harness must never trap: every input either decodes (`accepted`) or is refused with a typed error
/// (`rejected`). Whatever decodes is used the way a caller would (serialized again, iterated, drawn), so a value
/// that only looks decoded is caught too.
public struct FuzzHarness: Sendable {
    /// What one input did.
    public enum Outcome: Sendable, Equatable {
        case accepted
        case rejected
    }

    /// The harness's name: its seed folder is `Fuzz/seeds/<name>/`, and `make fuzz HARNESS=<name>` runs it alone.
    public let name: String
    /// The longest input libFuzzer should try (`-max_len`).
    public let maximumInputLength: Int
    /// What the harness exercises, for `make fuzz`'s listing.
    public let summary: String
    private let body: @Sendable ([UInt8]) -> Outcome

    public init(
        name: String, maximumInputLength: Int = 16_384, summary: String,
        body: @escaping @Sendable ([UInt8]) -> Outcome
    ) {
        self.name = name
        self.maximumInputLength = maximumInputLength
        self.summary = summary
        self.body = body
    }

    /// Runs the harness on one input.
    public func run(_ input: [UInt8]) -> Outcome { body(input) }
}

/// Every harness, by name.
public enum FuzzHarnesses {
    /// All harnesses, in the order `make fuzz` runs them.
    public static let all: [FuzzHarness] = [
        .tlSchema, .tlDecoder, .mtprotoService, .serverSession, .frameCodecs, .postboxDecoder, .oggOpus, .webpStill,
        .webpAnimated, .png, .tgs, .webmSticker, .jpeg, .serverAPI, .httpTransport, .secretChat,
    ]

    /// The harness called `name`.
    public static func named(_ name: String) -> FuzzHarness? {
        all.first { $0.name == name }
    }
}

extension FuzzHarness.Outcome {
    /// `accepted` when `body` returns, `rejected` when it throws.
    public static func of(_ body: () throws -> Void) -> Self {
        do {
            try body()
            return .accepted
        } catch {
            return .rejected
        }
    }
}

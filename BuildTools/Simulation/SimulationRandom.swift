/// The simulation's only source of choices: SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014), so a seed fixes every choice on every platform.
public struct SimulationRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A generator for one part of the simulation (an account's pushes), independent of how many choices the others
    /// drew.
    public func split(_ salt: UInt64) -> SimulationRandom {
        var copy = SimulationRandom(seed: state ^ (salt &* 0xD1B5_4A32_D192_ED03))
        _ = copy.next()
        return copy
    }

    /// A number in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// True with probability `percent` / 100.
    public mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
}

import BenchmarkSupport

/// FNV-1a (64-bit) over `bytes`: the checksum of what a side produced (a frame, a decoded picture), taken after its
/// timed run so that it costs neither side anything.
func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return hash
}

/// `checksum` of a byte array.
func checksum(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { checksum($0) } }

/// `checksum` of 32-bit words as they lie in memory (little-endian bytes): equal to `checksum` of the same bytes.
func checksum(words: [UInt32]) -> UInt64 { words.withUnsafeBytes { checksum($0) } }

/// A cheap fingerprint of one frame folded into `hash` inside a timed loop: the frame's size and 64 bytes spread
/// evenly over it. Both sides of a comparison fold the same frames the same way, so it costs them the same; the
/// whole frames are compared byte for byte before timing (`FrameCacheBench`).
func fold(_ hash: inout UInt64, _ bytes: [UInt8]) {
    hash = (hash ^ UInt64(bytes.count)) &* 0x0000_0100_0000_01b3
    guard !bytes.isEmpty else { return }
    let step = max(1, bytes.count / 64)
    var index = step / 2
    while index < bytes.count {
        hash = (hash ^ UInt64(bytes[index])) &* 0x0000_0100_0000_01b3
        index += step
    }
}

/// Times `work`, then takes what it produced with `output`, outside the timed window.
func timed<Output>(_ work: () -> Void, output: () -> Output) -> TimedRun<Output> {
    let start = now()
    work()
    let seconds = now() - start
    return TimedRun(seconds: seconds, output: output())
}

/// Prints `rows` under `title`, saying how they were measured (BENCHMARKS.md, "Method").
func printRows(_ title: String, peerName: String, _ rows: [Comparison]) {
    let rounds = rows.first?.roundRatios.count ?? 0
    printTable(
        title: "\(title) — median of \(rounds) interleaved round\(rounds == 1 ? "" : "s") (slowest–fastest)",
        peerName: peerName, rows)
}

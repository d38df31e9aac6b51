import BenchmarkSupport
import CZlibPeer
import Hashing

/// CRC-32 against zlib's `crc32` (the peer), and MurmurHash3-32 throughput, on 64 MiB of pseudo-random bytes.
@main
enum HashingBench {
    static func main() {
        checkCommandLine(
            """
            usage: hashing-bench

            CRC-32 against zlib's crc32, and MurmurHash3-32 throughput, on 64 MiB of pseudo-random bytes.
            """)
        printMachine()
        let size = 64 << 20
        var state: UInt64 = 0x1234_5678
        let bytes = (0..<size).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        let megabytes = Double(size) / 1_048_576
        // Both sides' checksums are compared in every round (`compareInterleaved`).
        let crc = compareInterleaved(
            "CRC-32", items: megabytes, unit: "MB", goal: "none set (table-driven Swift vs zlib's braided C)",
            ours: { UInt(CRC32.checksum(bytes)) },
            peer: { UInt(bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }) })
        let murmur = measure("murmur3-32", items: megabytes, unit: "MB") {
            blackHole(MurMurHash32.hash(bytes, seed: 0))
        }
        printTable(
            title: "Hashing (64 MiB)", peerName: "zlib",
            [
                crc,
                Comparison("MurmurHash3-32", ours: murmur, peer: nil),
            ])
    }
}

import FuzzHarnesses

#if canImport(Glibc)
import Glibc
#endif

/// The harness this process drives, named by `FUZZ_HARNESS` (read once, before the first input).
let selectedHarness: FuzzHarness = {
    let name = getenv("FUZZ_HARNESS").map { String(cString: $0) } ?? ""
    guard let harness = FuzzHarnesses.named(name) else {
        let known = FuzzHarnesses.all.map(\.name).joined(separator: ", ")
        let message = "fuzz: set FUZZ_HARNESS to one of: \(known) (got '\(name)')\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        exit(2)
    }
    return harness
}()

/// libFuzzer's entry point: one input to the selected harness.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = selectedHarness.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

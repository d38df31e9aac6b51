import BoundaryCheck
import Testing

@Suite struct ImportScannerTests {
    @Test func findsEveryFormOfImport() {
        let source = """
            import Foundation
            public import Buffers
            @testable import Hashing
            @_exported public import SwiftSignalKit
            import struct TLRuntime.Buffer
            // import Commented
            /* import Blocked
               import StillBlocked */
            let text = "import NotAnImport"
            #if canImport(Glibc)
            import Glibc
            #endif
            """
        #expect(ImportScanner.imports(in: source).map(\.module) == [
            "Foundation", "Buffers", "Hashing", "SwiftSignalKit", "TLRuntime", "Glibc",
        ])
        #expect(ImportScanner.imports(in: source).map(\.line) == [1, 2, 3, 4, 5, 11])
    }
}

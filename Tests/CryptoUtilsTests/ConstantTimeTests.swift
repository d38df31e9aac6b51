import CryptoUtils
import Testing

@Suite struct ConstantTimeTests {
    @Test func equalityOverEveryByte() {
        let a: [UInt8] = Array(0..<32)
        #expect(ConstantTime.equals(a, a))
        #expect(ConstantTime.equals(a, a[...]))
        for i in a.indices {
            var b = a
            b[i] ^= 0x80
            #expect(!ConstantTime.equals(a, b), "a difference at byte \(i) went unseen")
        }
        #expect(!ConstantTime.equals(a, a.dropLast()))
        #expect(ConstantTime.equals([UInt8](), [UInt8]()))
    }
}

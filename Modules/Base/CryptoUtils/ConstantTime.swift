/// Comparison of secrets and their hashes in time that does not depend on where they differ (MTProto security
/// guidelines: hashes proving knowledge of a key — new_nonce_hash, answer_with_hash, msg_key — are compared
/// without an early exit).
public enum ConstantTime {
    /// Whether `a` and `b` are equal; every byte is compared whatever the first difference. Lengths are not secret:
    /// different lengths return false at once.
    @inline(never)
    public static func equals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}

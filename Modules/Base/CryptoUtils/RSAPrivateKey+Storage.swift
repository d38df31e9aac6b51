/// Persisting a key pair: the local server keeps its RSA key in its data folder between runs.
extension RSAPrivateKey {
    /// The private exponent, big-endian. Secret: store it with owner-only permissions and never log it.
    public var privateExponentBytes: [UInt8] { privateExponent }

    /// The CRT numbers (p, q, dP, dQ, qInv), when the key has them. Secret, like the private exponent.
    public var crtParameters: CRTParameters? { crt }
}

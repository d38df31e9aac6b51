/// Printing a private key shows its public half only: `description`, `debugDescription` and the mirror that `dump`
/// and `String(reflecting:)` walk hold no private number, so a key can never leak through a log line, an error or a
/// failed test's message.
extension RSAPrivateKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        let fingerprint = String(publicKey.fingerprint, radix: 16)
        return "RSAPrivateKey(\(publicKey.size * 8)-bit, fingerprint \(fingerprint), private numbers redacted)"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["publicKey": publicKey, "usesCRT": usesCRT], displayStyle: .struct)
    }
}

extension RSAPrivateKey.CRTParameters: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "CRTParameters(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

/// Checks that a value holding key material prints none of it, however it is printed.
public enum Redaction {
    /// The ways a value reaches a log or a failure message: `String(describing:)`, `String(reflecting:)`
    /// (`debugDescription`), string interpolation, and `dump`.
    public static func renderings(of value: Any) -> [(how: String, text: String)] {
        var dumped = ""
        dump(value, to: &dumped)
        return [
            ("String(describing:)", String(describing: value)), ("String(reflecting:)", String(reflecting: value)),
            ("interpolation", "\(value)"), ("dump", dumped),
        ]
    }

    /// The renderings of `value` that show `secret`: as hex (either case), or as a run of its first bytes in decimal
    /// (how arrays print and how `dump` lists their elements). Empty when nothing leaks. Use a secret of at least 8
    /// random-looking bytes, so that a match cannot be chance.
    public static func leaks(of secret: [UInt8], in value: Any) -> [String] {
        let probe = Array(secret.prefix(8))
        let hexProbe = hex(probe)
        return renderings(of: value).compactMap { rendering in
            let text = rendering.text
            if text.lowercased().contains(hexProbe) { return "\(rendering.how) shows the secret as hex" }
            if containsDecimalRun(probe, in: text) { return "\(rendering.how) shows the secret's bytes" }
            return nil
        }
    }

    /// Whether the integers written in `text`, in order, contain `run` contiguously.
    static func containsDecimalRun(_ run: [UInt8], in text: String) -> Bool {
        var numbers: [Int] = []
        var current: Int?
        for scalar in text.unicodeScalars {
            if let digit = Int(String(scalar)), scalar.isASCII {
                current = (current ?? 0) * 10 + digit
                if current! > 1 << 20 { current = 1 << 20 }
            } else if let value = current {
                numbers.append(value)
                current = nil
            }
        }
        if let current { numbers.append(current) }
        let target = run.map(Int.init)
        guard !target.isEmpty, numbers.count >= target.count else { return false }
        for start in 0...(numbers.count - target.count) where Array(numbers[start..<start + target.count]) == target {
            return true
        }
        return false
    }
}

/// The `--until` of `tg ban`: a duration from now (`90s`, `30m`, `12h`, `7d`) or a Unix time; Telegram treats a
/// restriction shorter than 30 s or longer than 366 days as for ever (core.telegram.org "chatBannedRights",
/// `until_date`).
public enum BanUntil {
    /// The Unix time `text` names, counted from `now`; `nil` when it is neither form.
    public static func parse(_ text: String, now: Int32) -> Int32? {
        if let absolute = Int32(text), absolute > 0 { return absolute }
        guard let unit = text.last, let amount = Int32(text.dropLast()), amount > 0 else { return nil }
        let seconds: Int32
        switch unit {
        case "s": seconds = 1
        case "m": seconds = 60
        case "h": seconds = 3600
        case "d": seconds = 86_400
        default: return nil
        }
        let (product, overflow) = amount.multipliedReportingOverflow(by: seconds)
        guard !overflow else { return nil }
        let (sum, overflowSum) = now.addingReportingOverflow(product)
        return overflowSum ? nil : sum
    }
}

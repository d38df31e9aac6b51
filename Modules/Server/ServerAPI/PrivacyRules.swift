import TLRuntime
import TelegramApi

/// One account's rules for one privacy key (core.telegram.org "Privacy"), as stored: the `PrivacyRule`s the account
/// set, user lists resolved to ids. Telegram applies the most specific rule that names the viewer: a user list first
/// (disallowing wins over allowing), then contacts, then everybody; a viewer no rule names is refused. An account
/// that never set the key allows everybody, as a new Telegram account does.
struct PrivacyRules: Sendable {
    let rules: [Api.PrivacyRule]

    /// What a new account has: everybody.
    static let everybody = PrivacyRules(rules: [.privacyValueAllowAll])
    /// The most users one call's rules may name (Telegram's own limit is not published; this bounds the row).
    static let maximumUsers = 1000

    /// Whether these rules let `viewer` see; `isContact` says whether the owner has `viewer` in their contacts and
    /// is asked only when a contacts rule decides.
    func allows(_ viewer: Int64, isContact: () throws -> Bool) rethrows -> Bool {
        for case .privacyValueDisallowUsers(let list) in rules where list.users.contains(viewer) { return false }
        for case .privacyValueAllowUsers(let list) in rules where list.users.contains(viewer) { return true }
        let contactRule = rules.first {
            switch $0 {
            case .privacyValueAllowContacts, .privacyValueDisallowContacts: return true
            default: return false
            }
        }
        if let contactRule, try isContact() {
            if case .privacyValueAllowContacts = contactRule { return true }
            return false
        }
        for rule in rules {
            if case .privacyValueAllowAll = rule { return true }
            if case .privacyValueDisallowAll = rule { return false }
        }
        return false
    }

    /// The ids the rules name, for the `users` of `account.privacyRules`.
    var userIds: [Int64] {
        rules.flatMap { rule -> [Int64] in
            switch rule {
            case .privacyValueAllowUsers(let list): return list.users
            case .privacyValueDisallowUsers(let list): return list.users
            default: return []
            }
        }
    }

    /// The stored form: a boxed `Vector<PrivacyRule>`.
    func serialized() -> [UInt8] {
        var writer = TLWriter()
        writer.writeVectorHeader(count: rules.count)
        for rule in rules { rule.serialize(&writer) }
        return writer.takeBytes()
    }

    /// The rules stored as `bytes`; everybody when `nil` or unreadable.
    init(stored bytes: [UInt8]?) {
        guard let bytes else {
            self = .everybody
            return
        }
        var reader = TLReader(bytes)
        let parsed = try? reader.readVector { (r: inout TLReader) throws(TLDecodingError) in
            try Api.PrivacyRule.parse(&r)
        }
        rules = parsed ?? Self.everybody.rules
    }

    init(rules: [Api.PrivacyRule]) {
        self.rules = rules
    }
}

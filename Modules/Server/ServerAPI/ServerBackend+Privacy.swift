import ServerStore
import TelegramApi

/// `account.setPrivacy` / `account.getPrivacy` (core.telegram.org "Privacy"): the rules of the privacy keys tg-server
/// applies — `statusTimestamp` (who sees the exact last seen time) and `forwards` (whose forwards of the account's
/// messages link to it: "Who can add a link to my account when forwarding my messages"; see
/// `ServerBackend+ForwardPrivacy`). Other keys answer `PRIVACY_KEY_INVALID`, and rules
/// the server cannot decide yet (chat participants, close friends, premium, bots) `PRIVACY_VALUE_INVALID`: accepted
/// but not applied, they would be a silent lie.
extension ServerBackend {
    /// A privacy key tg-server stores, by its name in the store.
    enum PrivacyKeyName: String {
        case statusTimestamp
        case forwards

        /// The key as `updatePrivacy` and `account.privacyRules` name it.
        var apiKey: Api.PrivacyKey {
            switch self {
            case .statusTimestamp: .privacyKeyStatusTimestamp
            case .forwards: .privacyKeyForwards
            }
        }
    }

    static func privacyKey(_ input: Api.InputPrivacyKey) throws -> PrivacyKeyName {
        switch input {
        case .inputPrivacyKeyStatusTimestamp: return .statusTimestamp
        case .inputPrivacyKeyForwards: return .forwards
        default: throw APIError.badRequest("PRIVACY_KEY_INVALID")
        }
    }

    func privacyRules(owner: Int64, key: PrivacyKeyName, tx: StoreTransaction) throws -> PrivacyRules {
        PrivacyRules(stored: try tx.privacyRules(owner: owner, key: key.rawValue))
    }

    func getPrivacy(_ call: Api.functions.account.getPrivacy, caller: Caller) throws -> Api.account.PrivacyRules {
        let key = try Self.privacyKey(call.key)
        return try store.read { tx in
            try apiPrivacyRules(try privacyRules(owner: caller.userId, key: key, tx: tx), viewer: caller.userId, tx: tx)
        }
    }

    /// `account.setPrivacy`: replaces the caller's rules for the key; the account's sessions get `updatePrivacy` in
    /// the seq sequence (`ServerBackend+Seq`).
    func setPrivacy(_ call: Api.functions.account.setPrivacy, caller: Caller) throws -> Api.account.PrivacyRules {
        let key = try Self.privacyKey(call.key)
        guard call.rules.count <= 16 else { throw APIError.badRequest("PRIVACY_TOO_LONG") }
        var pushes: [Push] = []
        let date = now
        return try store.write(
            { [self] tx throws -> Api.account.PrivacyRules in
                let rules = PrivacyRules(rules: try call.rules.map { try privacyRule($0, caller: caller, tx: tx) })
                guard rules.userIds.count <= PrivacyRules.maximumUsers else {
                    throw APIError.badRequest("PRIVACY_TOO_LONG")
                }
                try tx.setPrivacyRules(owner: caller.userId, key: key.rawValue, rules: rules.serialized())
                let answer = try apiPrivacyRules(rules, viewer: caller.userId, tx: tx)
                guard case .privacyRules(let body) = answer else { return answer }
                let update = Api.Updates.updates(
                    .init(
                        updates: [.updatePrivacy(.init(key: key.apiKey, rules: rules.rules))],
                        users: body.users, chats: [], date: date, seq: 0))
                if let push = try seqPush(update, owner: caller.userId, tx: tx) { pushes.append(push) }
                return answer
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// The stored form of one input rule: users resolved (checking access hashes) to ids.
    private func privacyRule(
        _ input: Api.InputPrivacyRule, caller: Caller, tx: StoreTransaction
    ) throws -> Api.PrivacyRule {
        func ids(_ users: [Api.InputUser]) throws -> [Int64] {
            guard users.count <= PrivacyRules.maximumUsers else { throw APIError.badRequest("PRIVACY_TOO_LONG") }
            return try users.map { user in
                guard let record = try resolve(user, caller: caller, tx: tx) else { throw APIError.userIdInvalid }
                return record.id
            }
        }
        switch input {
        case .inputPrivacyValueAllowAll: return .privacyValueAllowAll
        case .inputPrivacyValueDisallowAll: return .privacyValueDisallowAll
        case .inputPrivacyValueAllowContacts: return .privacyValueAllowContacts
        case .inputPrivacyValueDisallowContacts: return .privacyValueDisallowContacts
        case .inputPrivacyValueAllowUsers(let list): return .privacyValueAllowUsers(.init(users: try ids(list.users)))
        case .inputPrivacyValueDisallowUsers(let list):
            return .privacyValueDisallowUsers(.init(users: try ids(list.users)))
        default: throw APIError.badRequest("PRIVACY_VALUE_INVALID")
        }
    }

    /// `account.privacyRules` with the users the rules name.
    private func apiPrivacyRules(
        _ rules: PrivacyRules, viewer: Int64, tx: StoreTransaction
    ) throws -> Api.account.PrivacyRules {
        .privacyRules(
            .init(rules: rules.rules, chats: [], users: try apiUsers(Set(rules.userIds), viewer: viewer, tx: tx)))
    }
}

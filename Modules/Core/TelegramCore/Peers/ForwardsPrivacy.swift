import TelegramApi

extension Account {
    /// Whose forwards of this account's messages link to it (core.telegram.org "Privacy", `inputPrivacyKeyForwards`;
    /// Telegram's "Forwarded messages" setting): the same three choices as the last seen time. A forward by someone
    /// not allowed carries only this account's name (`fwd_from.from_name`), drawn as an unlinked "Forwarded from NAME".
    public func forwardsPrivacy() async throws(MessageActionError) -> LastSeenPrivacy {
        try await privacy(of: .inputPrivacyKeyForwards)
    }

    /// Sets whose forwards of this account's messages link to it (`account.setPrivacy`); returns what the server now
    /// holds.
    @discardableResult
    public func setForwardsPrivacy(_ privacy: LastSeenPrivacy) async throws(MessageActionError) -> LastSeenPrivacy {
        try await setPrivacy(privacy, of: .inputPrivacyKeyForwards)
    }

    /// One privacy setting (`account.getPrivacy`) as the three choices; rules the server has not set read as
    /// everybody.
    func privacy(of key: Api.InputPrivacyKey) async throws(MessageActionError) -> LastSeenPrivacy {
        let answer = try await MessageCalls.call(Api.functions.account.getPrivacy(key: key), network: network)
        guard case .privacyRules(let body) = answer else { return .everybody }
        return LastSeenPrivacy(rules: body.rules)
    }

    /// Sets one privacy setting (`account.setPrivacy`); returns what the server now holds.
    func setPrivacy(
        _ privacy: LastSeenPrivacy, of key: Api.InputPrivacyKey
    ) async throws(MessageActionError)
        -> LastSeenPrivacy
    {
        let answer = try await MessageCalls.call(
            Api.functions.account.setPrivacy(key: key, rules: privacy.inputRules), network: network)
        guard case .privacyRules(let body) = answer else { return privacy }
        return LastSeenPrivacy(rules: body.rules)
    }
}

import TelegramApi

extension Account {
    /// Whose forwards of this account's messages link to it (core.telegram.org "Privacy", `inputPrivacyKeyForwards`;
    /// Telegram's "Forwarded messages" setting): the same three choices as the last seen time. A forward by someone
    /// not allowed carries only this account's name (`fwd_from.from_name`), drawn as an unlinked "Forwarded from NAME".
    public func forwardsPrivacy() async throws(MessageActionError) -> LastSeenPrivacy {
        let answer = try await MessageCalls.call(
            Api.functions.account.getPrivacy(key: .inputPrivacyKeyForwards), network: network)
        guard case .privacyRules(let body) = answer else { return .everybody }
        return LastSeenPrivacy(rules: body.rules)
    }

    /// Sets whose forwards of this account's messages link to it (`account.setPrivacy`); returns what the server now
    /// holds.
    @discardableResult
    public func setForwardsPrivacy(_ privacy: LastSeenPrivacy) async throws(MessageActionError) -> LastSeenPrivacy {
        let answer = try await MessageCalls.call(
            Api.functions.account.setPrivacy(key: .inputPrivacyKeyForwards, rules: privacy.inputRules),
            network: network)
        guard case .privacyRules(let body) = answer else { return privacy }
        return LastSeenPrivacy(rules: body.rules)
    }
}

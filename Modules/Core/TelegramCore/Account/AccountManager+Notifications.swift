public import AccountNetworking
import CryptoUtils
import MTProtoCore
import Network
public import PushNotifications
import TelegramApi

/// Pushes (core.telegram.org "Handling PUSH-notifications", encrypted notifications): each account has its own
/// 256-byte notification key, made at sign-in and kept in the accounts metadata (`NotificationKeyStore`: found by
/// the id a push starts with, without opening any account — where the notification service looks), registered with
/// the installation's device token through `account.registerDevice` and unregistered at log-out.
extension AccountManager {
    /// APNs, as Telegram numbers token types.
    static let pushTokenType: Int32 = 1
    /// The shared-data entry holding the installation's device token.
    static let pushTokenKey = "push-token"

    /// The installation's notification keys.
    public var notificationKeys: NotificationKeyStore {
        NotificationKeyStore(layout: AccountsLayout(rootPath: rootPath))
    }

    /// The device token pushes for this installation's accounts go to (what APNs gives an app: 32 bytes as 64 hex
    /// digits); made once and kept in the shared data. tg-server's `--push-dir` writes them to `DIR/<token>/`.
    public func pushToken() -> String {
        if let stored = sharedData(Self.pushTokenKey), let token = String(validating: stored, as: UTF8.self) {
            return token
        }
        let token = NotificationKey.hex(SecureRandom.bytes(32))
        try? setSharedData(Self.pushTokenKey, Array(token.utf8))
        return sharedData(Self.pushTokenKey).flatMap { String(validating: $0, as: UTF8.self) } ?? token
    }

    /// Registers `account`'s notification key with the server for this installation's token (the app calls it at
    /// each start, as Telegram does, since tokens change); `false` when it has no key or the server refused.
    @discardableResult
    public func registerForNotifications(_ account: Account) async -> Bool {
        guard let entry = try? notificationKeys.entry(accountId: account.id.rawValue) else { return false }
        return await registerForNotifications(network: account.network, key: entry.key)
    }

    func registerForNotifications(network: any AccountNetworking, key: NotificationKey) async -> Bool {
        let call = Api.functions.account.registerDevice(
            noMuted: false, tokenType: Self.pushTokenType, token: pushToken(), appSandbox: false, secret: key.bytes,
            otherUids: [])
        return (try? await network.request(call, timeout: 10)) == true
    }
}

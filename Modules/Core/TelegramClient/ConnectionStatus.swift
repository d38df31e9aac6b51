import Network
public import SwiftSignalKit
public import TelegramCore

/// What a title bar says about an account's connection (Telegram-iOS `ConnectionStatus`, shown as "Waiting for
/// network…", "Connecting…", "Updating…" or the plain title).
public enum ClientConnectionStatus: String, Equatable, Sendable {
    case waitingForNetwork
    case connecting
    case updating
    case online

    /// The words a title shows for it.
    public var title: String {
        switch self {
        case .waitingForNetwork: return "waiting for network"
        case .connecting: return "connecting"
        case .updating: return "updating"
        case .online: return "online"
        }
    }
}

/// An account's connection status over time, for a client without the Network module: the main DC's socket and the
/// state manager's catching up (`AccountNetwork.status()`).
public enum ClientConnection {
    /// The status signal of `account`'s main connection; `.connecting` alone if the connection cannot be made.
    public static func status(of account: Account) async -> Signal<ClientConnectionStatus, NoError> {
        guard let status = try? await account.network.status() else { return .single(.connecting) }
        return status
            |> map { status -> ClientConnectionStatus in
                switch status {
                case .waitingForNetwork: return .waitingForNetwork
                case .connecting: return .connecting
                case .updating: return .updating
                case .online: return .online
                }
            }
    }
}

import AccountNetworking
import Network
public import SwiftSignalKit
public import TelegramCore

/// What a title bar says about an account's connection (Telegram-iOS `ConnectionStatus`, shown as "Waiting for
/// network…", "Connecting…", "Updating…" or the plain title).
public enum ClientConnectionStatus: String, Equatable, Sendable {
    case waitingForNetwork
    case connecting
    /// Connecting through the account's SOCKS5 proxy or MTProxy (Telegram-iOS: "Connecting to proxy…").
    case connectingToProxy
    case updating
    case online

    /// The words a title shows for it.
    public var title: String {
        switch self {
        case .waitingForNetwork: return "waiting for network"
        case .connecting: return "connecting"
        case .connectingToProxy: return "connecting to proxy"
        case .updating: return "updating"
        case .online: return "online"
        }
    }
}

/// An account's connection status over time, for a client without the Network module: the main DC's socket and the
/// state manager's catching up (`AccountNetwork.status()`).
public enum ClientConnection {
    /// The status of `account`'s main connection: `.connecting` until the connection exists (tried again every
    /// `retry` seconds while the server cannot be reached), then the socket's state and the state manager's; with
    /// `throughProxy`, connecting says `.connectingToProxy`.
    public static func status(
        of account: Account, throughProxy: Bool = false, retry: Double = 1
    ) -> Signal<ClientConnectionStatus, NoError> {
        let connecting: ClientConnectionStatus = throughProxy ? .connectingToProxy : .connecting
        return Signal { subscriber in
            subscriber.putNext(connecting)
            let inner = MetaDisposable()
            let task = Task {
                while !Task.isCancelled {
                    if let status = try? await account.network.status() {
                        inner.set(
                            status.start(next: { value in
                                switch value {
                                case .waitingForNetwork: subscriber.putNext(.waitingForNetwork)
                                case .connecting: subscriber.putNext(connecting)
                                case .updating: subscriber.putNext(.updating)
                                case .online: subscriber.putNext(.online)
                                }
                            }))
                        return
                    }
                    try? await Task.sleep(for: .seconds(retry))
                }
            }
            return ActionDisposable {
                task.cancel()
                inner.dispose()
            }
        }
    }
}

public import AccountNetworking
public import Network
import SwiftSignalKit
import TLRuntime
import TelegramApi
public import UpdateSequencing

extension AccountStateManager.Environment {
    /// The state manager's server: the main DC's pushes (`nil` where pushes may have been lost: a new session, a
    /// socket replaced, and once the subscription is in place — pushes before it were not heard), `updates.getState`,
    /// `updates.getDifference` and each channel's `updates.getChannelDifference`; their tasks prefer `taskExecutor`
    /// (`Account` passes `AccountScheduling.taskExecutor`, or else the network's `callExecutor`; nil: Swift's
    /// default). On the network's loop only the answer's decoding and the hand-over to the manager's queue run.
    public static func network(
        _ network: any AccountNetworking, differenceTotalLimit: Int32? = nil,
        didResetChats: @escaping @Sendable () -> Void = {}, taskExecutor: (any TaskExecutor)? = nil
    ) -> AccountStateManager.Environment {
        let updates = Signal<Api.Updates?, NoError> { subscriber in
            let inner = MetaDisposable()
            let task = Task(executorPreference: taskExecutor) {
                guard let events = try? await network.updates() else { return }
                inner.set(
                    events.start(next: { event in
                        switch event {
                        case .updates(let bytes):
                            if let updates = try? Api.Updates(tlBytes: bytes) { subscriber.putNext(updates) }
                        case .newSession, .reconnected:
                            subscriber.putNext(nil)
                        }
                    }))
                // Listening from here on (the pipe keeps nothing for a late listener): the manager catches up now.
                subscriber.putNext(nil)
            }
            return ActionDisposable {
                task.cancel()
                inner.dispose()
            }
        }
        return AccountStateManager.Environment(
            updates: updates,
            getState: {
                network.requestSignal(Api.functions.updates.getState(), executorPreference: taskExecutor)
                    |> mapError { .network("\($0)") }
            },
            getDifference: { state in
                network.requestSignal(
                    Api.functions.updates.getDifference(
                        pts: state.pts, ptsTotalLimit: differenceTotalLimit, date: state.date, qts: state.qts),
                    executorPreference: taskExecutor)
                    |> mapError { .network("\($0)") }
            },
            getChannelDifference: { channel, pts in
                // Telegram-iOS asks for 100 updates at a time for an ordinary account.
                network.requestSignal(
                    Api.functions.updates.getChannelDifference(
                        force: false, channel: channel, filter: .channelMessagesFilterEmpty, pts: pts, limit: 100),
                    executorPreference: taskExecutor)
                    |> mapError { .network("\($0)") }
            },
            didResetChats: didResetChats,
            getChannelPts: { channels in
                network.requestSignal(
                    Api.functions.messages.getPeerDialogs(
                        peers: channels.compactMap { channel -> Api.InputDialogPeer? in
                            guard case .inputChannel(let input) = channel else { return nil }
                            return .inputDialogPeer(
                                .init(
                                    peer: .inputPeerChannel(
                                        .init(channelId: input.channelId, accessHash: input.accessHash))))
                        }),
                    executorPreference: taskExecutor)
                    |> map { ChannelPtsCheck.dialogPts($0) }
                    |> mapError { .network("\($0)") }
            })
    }

}

public import AccountNetworking
public import Network
public import Postbox
import SwiftSignalKit

/// An account that is signing in (Telegram-iOS `UnauthorizedAccount`): its own folder, Postbox and network (so a
/// `PHONE_MIGRATE` moves only its main DC), and the sign-in step it reached, kept as its Postbox state.
public final class UnauthorizedAccount: @unchecked Sendable {
    public let id: AccountRecordId
    public let basePath: String
    public let postbox: Postbox
    public let network: any AccountNetworking
    let environment: NetworkEnvironment

    init(
        id: AccountRecordId, basePath: String, postbox: Postbox, network: any AccountNetworking,
        environment: NetworkEnvironment
    ) {
        self.id = id
        self.basePath = basePath
        self.postbox = postbox
        self.network = network
        self.environment = environment
    }

    /// The sign-in step, as stored.
    public func state() throws -> UnauthorizedAccountStateContents {
        let stored = try postbox.transactionSync { tx in try tx.getState() }
        return (stored as? UnauthorizedAccountState)?.contents ?? .empty
    }

    func setState(_ contents: UnauthorizedAccountStateContents) throws {
        try postbox.transactionSync { tx in try tx.setState(UnauthorizedAccountState(contents: contents)) }
    }

    /// The DC sign-in talks to (moved by `PHONE_MIGRATE_X`).
    public var mainDc: Int32 {
        get async { await network.mainDc }
    }
}

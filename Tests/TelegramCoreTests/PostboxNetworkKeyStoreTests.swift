import Dispatch
import Foundation
import MTProtoCore
import Postbox
import PostboxTesting
import SwiftSignalKit
import TelegramCore
import Testing

/// The account's network keys in its Postbox keychain (`PostboxNetworkKeyStore`): what is set reads back, and reading
/// takes no write transaction — the network asks for the main DC on every call, and a call must not wait behind
/// Postbox's writer (a group commit of thousands of messages) or cost a transaction of its own.
@Suite struct PostboxNetworkKeyStoreTests {
    @Test func readsNeitherWaitForTheWriterNorWrite() throws {
        let harness = try AccountStateManagerTests.Harness()
        defer { harness.directory.remove() }
        let store = PostboxNetworkKeyStore(postbox: harness.postbox)
        #expect(store.mainDatacenter() == nil)
        store.setMainDatacenter(4)
        let key = AuthKeyExchangeResult(
            authKey: AuthKey(bytes: Array(repeating: 7, count: 256))!, serverSalt: 99, timeOffset: 1.5,
            expiresAt: nil)
        store.setKey(key, datacenter: 4)
        // A second store over the same Postbox reads what the first wrote (nothing only in memory).
        let reopened = PostboxNetworkKeyStore(postbox: harness.postbox)
        #expect(reopened.mainDatacenter() == 4)
        #expect(reopened.key(datacenter: 4)?.serverSalt == 99)

        let written = harness.postbox.writeStatistics().transactions
        let writer = GroupCommitTests.HeldWriter(harness.postbox)
        let done = DispatchSemaphore(value: 0)
        let reads = LockedValue<(Int32?, Int64?)>((nil, nil))
        Thread.detachNewThread {
            let fresh = PostboxNetworkKeyStore(postbox: harness.postbox)
            reads.withLock { $0 = (fresh.mainDatacenter(), fresh.key(datacenter: 4)?.serverSalt) }
            done.signal()
        }
        // The writer is held: the reads return anyway.
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(reads.withLock { $0.0 } == 4)
        #expect(reads.withLock { $0.1 } == 99)
        writer.release()
        harness.postbox.waitForWrites()
        #expect(harness.postbox.writeStatistics().transactions == written)
    }
}

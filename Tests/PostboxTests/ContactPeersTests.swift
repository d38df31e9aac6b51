import PostboxTesting
import SignalTesting
import Testing

@testable import Postbox

/// The account's contacts (Telegram-iOS Postbox `ContactTable`, `replaceContactPeerIds`, `ContactPeersView`): the set
/// and the remote count survive reopening, a replace writes only what changed and the live view emits once per change
/// of the set, its peers or the count; another Postbox instance's replace reaches the view through the change log.
@Suite("Contact peers")
struct ContactPeersTests {
    @Test("the set is replaced whole, kept across reopening, and watched")
    func replaceAndView() throws {
        let (postbox, directory) = try makePostbox()
        defer { _ = directory }
        let view = ViewRecorder(postbox.contactPeersView())
        try postbox.drainQueue()
        #expect(view.last?.peerIds == [] && view.last?.remoteTotalCount == 0)

        try postbox.transactionSync { tx in
            try tx.updatePeers([TestPeer(id: peer(1), name: "Ann"), TestPeer(id: peer(3), name: "Cy")])
            try tx.replaceContactPeerIds([peer(1), peer(2)])
            try tx.replaceRemoteContactCount(7)
        }
        #expect(view.count == 2 && view.last?.peerIds == [peer(1), peer(2)] && view.last?.remoteTotalCount == 7)
        #expect((view.last?.peers[peer(1)] as? TestPeer)?.name == "Ann" && view.last?.peers[peer(2)] == nil)

        // The same set again changes nothing: no snapshot, and the operations record nothing.
        let unchanged = try postbox.transactionSync { tx in
            try tx.replaceContactPeerIds([peer(2), peer(1)])
            try tx.replaceRemoteContactCount(7)
            return tx.operations.updatedContacts
        }
        #expect(!unchanged && view.count == 2)

        // A contact's peer changing is shown; a stranger's is not.
        try postbox.transactionSync { tx in try tx.updatePeers([TestPeer(id: peer(2), name: "Bo")]) }
        try postbox.transactionSync { tx in try tx.updatePeers([TestPeer(id: peer(3), name: "Cyd")]) }
        #expect(view.count == 3 && (view.last?.peers[peer(2)] as? TestPeer)?.name == "Bo")

        try postbox.transactionSync { tx in try tx.replaceContactPeerIds([peer(2), peer(3)]) }
        #expect(view.last?.peerIds == [peer(2), peer(3)] && (view.last?.peers[peer(3)] as? TestPeer)?.name == "Cyd")
        #expect(try postbox.readTransactionSync { tx in try tx.isPeerContact(peerId: peer(3)) })
        #expect(try postbox.readTransactionSync { tx in try !tx.isPeerContact(peerId: peer(1)) })

        let reopened = try Postbox.open(accountPath: directory.path + "/account-1", encryption: testKey)
        #expect(try reopened.readTransactionSync { tx in try tx.getContactPeerIds() } == [peer(2), peer(3)])
        #expect(try reopened.readTransactionSync { tx in try tx.getRemoteContactCount() } == 7)

        // The other instance's write reaches the first one's view (the change log's `contacts` flag).
        try reopened.transactionSync { tx in try tx.replaceContactPeerIds([]) }
        #expect(view.wait(forCount: 5, seconds: 5), "the view did not see the other instance's replace")
        #expect(view.last?.peerIds == [])
        let operations = try postbox.transactionSync { tx in
            try tx.replaceContactPeerIds([peer(4)])
            return tx.operations
        }
        #expect(ExternalChanges.decode(ExternalChanges(operations).encode()).contacts)
    }
}

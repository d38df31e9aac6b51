import AccountNetworking
import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import SyncCore
import TelegramApi
import Testing

@testable import TelegramCore

/// The contact list against a scripted network: `contacts.getContacts` carries the hash of the stored list and a
/// `contactsNotModified` keeps it; imports go in batches, contacts answered in `retry_contacts` are sent again, a
/// short `FLOOD_WAIT` is waited out (on the test's clock, no real sleeping) and a long one stops the import with what
/// was imported kept; a user's `contact` flag moves them in or out of the list; deleting sends the user's access hash.
@Suite struct ContactsTests {
    typealias Errors = PeerActionErrorsTests

    /// Waits recorded instead of slept.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var waited: [Double] = []
        var waits: [Double] { lock.withLock { waited } }
        var sleep: @Sendable (Double) async -> Void { { [self] seconds in lock.withLock { waited.append(seconds) } } }
    }

    static func calls<F>(_ network: ScriptedNetwork, _ type: F.Type) -> [F] { network.calls.compactMap { $0 as? F } }

    static func user(_ id: Int64, contact: Bool = true, min: Bool = false) -> Api.User {
        .user(.init(contact: contact, min: min, id: id, accessHash: id * 11, firstName: "U\(id)"))
    }

    static func contactIds(_ account: Account) throws -> Set<PeerId> {
        try account.postbox.readTransactionSync { tx in try tx.getContactPeerIds() }
    }

    @Test(.timeLimit(.minutes(1))) func theStoredListsHashIsSentAndNotModifiedKeepsIt() async throws {
        let directory = TemporaryDirectory(prefix: "contacts-sync")
        defer { directory.remove() }
        let network = ScriptedNetwork { function in
            guard let call = function as? Api.functions.contacts.getContacts else { return nil }
            if call.hash == 0 {
                return Api.contacts.Contacts.contacts(
                    .init(
                        contacts: [
                            .contact(.init(userId: 2, mutual: true)), .contact(.init(userId: 3, mutual: false)),
                        ],
                        savedCount: 5, users: [Self.user(2), Self.user(3)]))
            }
            return Api.contacts.Contacts.contactsNotModified
        }
        let account = try Errors.account(network, in: directory)
        #expect(try await account.syncContacts() == .replaced(count: 2))
        #expect(try Self.contactIds(account) == [.user(2), .user(3)])
        let view = try account.contactPeers()
        #expect(view.remoteTotalCount == 5 && view.peers[.user(3)].map { ($0 as? TelegramUser)?.firstName } == "U3")
        let hash = try account.postbox.readTransactionSync { tx in try ContactList.hash(transaction: tx) }
        // saved_count 5, then ids 2 and 3 (the value `PaginationHashTests` checks against the formula).
        #expect(hash == 2_825_829_306_417_482)

        #expect(try await account.syncContacts() == .notModified)
        let sent = Self.calls(network, Api.functions.contacts.getContacts.self).map(\.hash)
        #expect(sent == [0, hash])
        #expect(try Self.contactIds(account) == [.user(2), .user(3)], "contactsNotModified keeps the list")
    }

    @Test(.timeLimit(.minutes(1))) func importsGoInBatchesRetryWhatTheServerDefersAndWaitOutAShortFlood() async throws {
        let directory = TemporaryDirectory(prefix: "contacts-import")
        defer { directory.remove() }
        // Numbers 100…106; those ending in an even digit have accounts (user id = the number). The first call floods
        // for 5 s; in each first-round batch the server defers the last contact to `retry_contacts`.
        let flooded = LockedFlag()
        let retried = LockedSet()
        let network = ScriptedNetwork { function in
            guard let call = function as? Api.functions.contacts.importContacts else { return nil }
            if !flooded.set() { return NetworkError.rpc(code: 420, message: "FLOOD_WAIT_5") }
            var imported: [Api.ImportedContact] = []
            var users: [Api.User] = []
            var retry: [Int64] = []
            for (index, input) in call.contacts.enumerated() {
                guard case .inputPhoneContact(let contact) = input, let number = Int64(contact.phone) else { continue }
                if index == call.contacts.count - 1, retried.insert(number) {
                    retry.append(contact.clientId)
                } else if number % 2 == 0 {
                    imported.append(.importedContact(.init(userId: number, clientId: contact.clientId)))
                    users.append(ContactsTests.user(number))
                }
            }
            return Api.contacts.ImportedContacts.importedContacts(
                .init(imported: imported, popularInvites: [], retryContacts: retry, users: users))
        }
        let account = try Errors.account(network, in: directory)
        let clock = Clock()
        let contacts = (100...106).map { PhoneContact(phone: String($0), firstName: "N\($0)") }
        let report = try await account.importContacts(
            contacts + [PhoneContact(phone: "10-0", firstName: "again")],
            options: ContactImportOptions(batchSize: 3, retryDelay: 2, maxFloodWait: 10, sleep: clock.sleep))

        #expect(report.imported.map(\.peerId) == [.user(100), .user(104), .user(102), .user(106)], "\(report)")
        #expect(report.notOnTelegram.map(\.phone) == ["101", "103", "105"])
        #expect(report.retried == 3 && report.retryLater.isEmpty && report.floodWait == nil)
        #expect(clock.waits == [5, 2], "the flood's 5 s, then one retry round's delay")
        let batches = Self.calls(network, Api.functions.contacts.importContacts.self).map { call in
            call.contacts.map { contact -> String in
                guard case .inputPhoneContact(let body) = contact else { return "?" }
                return body.phone
            }
        }
        // The flooded batch is sent again; "10-0" is 100 written twice, sent once; then the deferred ones.
        #expect(
            batches == [
                ["100", "101", "102"], ["100", "101", "102"], ["103", "104", "105"], ["106"], ["102", "105", "106"],
            ])
        #expect(try Self.contactIds(account) == [.user(100), .user(102), .user(104), .user(106)])
    }

    @Test(.timeLimit(.minutes(1))) func aLongFloodStopsTheImportAndKeepsWhatWasImported() async throws {
        let directory = TemporaryDirectory(prefix: "contacts-flood")
        defer { directory.remove() }
        let answered = LockedFlag()
        let network = ScriptedNetwork { function in
            guard function is Api.functions.contacts.importContacts else { return nil }
            guard !answered.set() else { return NetworkError.rpc(code: 420, message: "FLOOD_WAIT_600") }
            return Api.contacts.ImportedContacts.importedContacts(
                .init(
                    imported: [.importedContact(.init(userId: 7, clientId: 0))], popularInvites: [],
                    retryContacts: [], users: [ContactsTests.user(7)]))
        }
        let account = try Errors.account(network, in: directory)
        let clock = Clock()
        let contacts = (1...4).map { PhoneContact(phone: "55500\($0)", firstName: "P\($0)") }
        let report = try await account.importContacts(
            contacts, options: ContactImportOptions(batchSize: 2, maxFloodWait: 60, sleep: clock.sleep))
        #expect(report.floodWait == 600 && clock.waits.isEmpty)
        #expect(report.imported.map(\.peerId) == [.user(7)] && report.notOnTelegram.map(\.phone) == ["555002"])
        #expect(report.retryLater.map(\.phone) == ["555003", "555004"])
        #expect(try Self.contactIds(account) == [.user(7)])
    }

    @Test(.timeLimit(.minutes(1))) func aServerThatKeepsFloodingStopsTheImport() async throws {
        let directory = TemporaryDirectory(prefix: "contacts-floods")
        defer { directory.remove() }
        let network = ScriptedNetwork { function in
            function is Api.functions.contacts.importContacts
                ? NetworkError.rpc(code: 420, message: "FLOOD_WAIT_2") : nil
        }
        let account = try Errors.account(network, in: directory)
        let clock = Clock()
        let report = try await account.importContacts(
            [PhoneContact(phone: "5550001", firstName: "A")],
            options: ContactImportOptions(maxFloodWait: 10, floodWaitsPerBatch: 3, sleep: clock.sleep))
        #expect(clock.waits == [2, 2, 2] && report.floodWait == 2 && report.retryLater.map(\.phone) == ["5550001"])
        #expect(Self.calls(network, Api.functions.contacts.importContacts.self).count == 4)
    }

    /// A contact added elsewhere (another device, or this one while the account was stopped) is in the stored list
    /// once the account starts, with no call by the app: the list is synced at every start.
    @Test func theListIsSyncedWhenTheAccountStarts() async throws {
        let world = try await AccountIntegrationTests.World()
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622641", name: "Ann")
        let ben = try await AccountIntegrationTests.signUp(world, phone: "9996622642", name: "Ben")
        _ = try await ann.network.request(
            Api.functions.contacts.importContacts(
                contacts: [.inputPhoneContact(.init(clientId: 1, phone: "9996622642", firstName: "Ben", lastName: ""))]))
        #expect(try ann.postbox.readTransactionSync { tx in try tx.getContactPeerIds() }.isEmpty)
        ann.start()
        try await AccountIntegrationTests.wait("Ben in Ann's stored contacts") {
            try ann.postbox.readTransactionSync { tx in try tx.getContactPeerIds() } == [ben.peerId]
        }
        try await world.close([ann, ben])
    }

    @Test func aUsersContactFlagMovesThemInAndOutOfTheList() throws {
        let directory = TemporaryDirectory(prefix: "contacts-flag")
        defer { directory.remove() }
        let account = try Errors.account(ScriptedNetwork { _ in nil }, in: directory)
        let applier = UpdateBatchApplier(accountPeerId: account.peerId)
        func store(_ users: [Api.User]) throws {
            try account.postbox.transactionSync { tx in
                _ = try applier.storePeers(users: users, chats: [], transaction: tx)
            }
        }
        let seen = LockedList<Set<PeerId>>()
        let watch = account.postbox.contactPeersView().start(next: { view in seen.append(view.peerIds) })
        defer { watch.dispose() }
        try store([Self.user(5), Self.user(6), Self.user(1)])
        #expect(try Self.contactIds(account) == [.user(5), .user(6)], "the account itself is never its contact")
        try store([Self.user(5, contact: false, min: true)])
        #expect(try Self.contactIds(account) == [.user(5), .user(6)], "a min user's flags say nothing")
        try store([Self.user(5, contact: false)])
        #expect(try Self.contactIds(account) == [.user(6)])
        let distinct = seen.values.reduce(into: [Set<PeerId>]()) { list, ids in
            if list.last != ids { list.append(ids) }
        }
        #expect(distinct == [[], [.user(5), .user(6)], [.user(6)]], "the live view follows the list")
    }

    @Test(.timeLimit(.minutes(1))) func contactStatusesAreStoredAsPresences() async throws {
        let directory = TemporaryDirectory(prefix: "contacts-statuses")
        defer { directory.remove() }
        let network = ScriptedNetwork { function in
            guard function is Api.functions.contacts.getStatuses else { return nil }
            return [
                Api.ContactStatus.contactStatus(.init(userId: 2, status: .userStatusOnline(.init(expires: 500)))),
                Api.ContactStatus.contactStatus(.init(userId: 1, status: .userStatusOffline(.init(wasOnline: 7)))),
            ]
        }
        let account = try Errors.account(network, in: directory)
        #expect(try await account.updateContactPresences() == 1, "the account's own status is not stored")
        let stored = try account.postbox.readTransactionSync { tx in
            (try tx.getPeerPresence(.user(2)) as? TelegramUserPresence, try tx.getPeerPresence(.user(1)))
        }
        #expect(stored.0?.status == .present(until: 500) && stored.1 == nil)
    }

    /// `updateContactsReset` through the state manager empties the list and is not unhandled.
    @Test func contactsResetEmptiesTheList() throws {
        let harness = try AccountStateManagerTests.Harness()
        defer { harness.directory.remove() }
        try harness.postbox.transactionSync { tx in try tx.replaceContactPeerIds([.user(2), .user(3)]) }
        let manager = harness.manager()
        let summaries = LockedList<UpdateBatchApplier.Summary>()
        let watch = manager.appliedBatches.start(next: { summaries.append($0) })
        manager.start()
        harness.advance(by: 0.01)
        harness.server.pipe.putNext(.updateShort(.init(update: .updateContactsReset, date: 200)))
        harness.advance(by: 0.01)
        #expect(try harness.postbox.readTransactionSync { tx in try tx.getContactPeerIds() }.isEmpty)
        #expect(summaries.values.contains { $0.contactsReset })
        #expect(summaries.values.flatMap(\.unhandled).isEmpty)
        watch.dispose()
        manager.stop()
        harness.advance(by: 0.01)
    }

    @Test(.timeLimit(.minutes(1))) func deletingSendsTheAccessHashAndLeavesTheList() async throws {
        let directory = TemporaryDirectory(prefix: "contacts-delete")
        defer { directory.remove() }
        let network = ScriptedNetwork { function in
            guard function is Api.functions.contacts.deleteContacts else { return nil }
            return Api.Updates.updates(
                .init(updates: [], users: [ContactsTests.user(2, contact: false)], chats: [], date: 1, seq: 0))
        }
        let account = try Errors.account(network, in: directory)
        try account.postbox.transactionSync { tx in try tx.replaceContactPeerIds([.user(2)]) }
        try await account.deleteContacts([.user(2)])
        #expect(try Self.contactIds(account).isEmpty)
        let sent = Self.calls(network, Api.functions.contacts.deleteContacts.self).flatMap(\.id).map { user -> String in
            guard case .inputUser(let body) = user else { return "other" }
            return "\(body.userId)/\(body.accessHash)"
        }
        #expect(sent == ["2/22"])
        await #expect(throws: MessageActionError.unknownPeer(.user(9))) { try await account.deleteContacts([.user(9)]) }
    }
}

/// A flag set once: `set()` answers whether it was already set.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() -> Bool {
        lock.withLock {
            defer { value = true }
            return value
        }
    }
}

/// A set of numbers behind a lock: `insert` answers whether the number was new.
final class LockedSet: @unchecked Sendable {
    private let lock = NSLock()
    private var values: Set<Int64> = []
    func insert(_ value: Int64) -> Bool { lock.withLock { values.insert(value).inserted } }
}

/// Values appended from any thread.
final class LockedList<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [T] = []
    func append(_ value: T) { lock.withLock { stored.append(value) } }
    var values: [T] { lock.withLock { stored } }
}

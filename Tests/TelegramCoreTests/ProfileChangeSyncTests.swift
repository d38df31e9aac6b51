import AccountNetworking
import Foundation
import ImageCore
import JPEGBinding
import MediaBox
import Postbox
import SwiftSignalKit
import SyncCore
import TelegramApi
import Testing

@testable import TelegramCore

/// Someone's new name or photo, and a contact added on another device, reach a running account by push (tg-server's
/// `updateUserName`, `updateUser`, `updatePeerSettings`, each with the user attached) and land in its Postbox with no
/// call by the app.
@Suite struct ProfileChangeSyncTests {
    typealias World = AccountIntegrationTests.World

    /// A second device of `phone`'s account (signed in, not signed up).
    static func secondDevice(_ world: World, phone: String) async throws -> Account {
        let unauthorized = try world.manager.addUnauthorizedAccount()
        let authorization = world.manager.authorization(unauthorized)
        _ = try await authorization.sendCode(phoneNumber: phone).get()
        let code = String(repeating: String(Array(phone)[5]), count: 5)
        guard case .loggedIn = try await authorization.signIn(code: code).get() else { throw CancellationError() }
        return try world.manager.account(unauthorized.id)
    }

    /// Whether the account has fetched its update state (it then follows pushes).
    static func hasState(_ account: Account) throws -> Bool {
        try account.postbox.readTransactionSync { tx in (try tx.getState() as? AuthorizedAccountState)?.state } != nil
    }

    static func storedUser(_ id: PeerId, in account: Account) throws -> TelegramUser? {
        try account.postbox.readTransactionSync { tx in try tx.getPeer(id) as? TelegramUser }
    }

    /// Ann has Ben in her contacts, so she follows him: his new name, then his new photo, show in her store.
    @Test(.timeLimit(.minutes(1))) func aContactsNewNameAndPhotoArePushed() async throws {
        let world = try await World()
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622731", name: "Ann")
        let ben = try await AccountIntegrationTests.signUp(world, phone: "9996622732", name: "Ben")
        try await AccountIntegrationTests.introduce(phone: "9996622732", name: "Ben", to: ann)
        ann.start()
        try await AccountIntegrationTests.wait("Ann's state") { try Self.hasState(ann) }
        _ = try await ben.network.request(Api.functions.account.updateProfile(firstName: "Benjamin"))
        try await AccountIntegrationTests.wait("Ben's new name in Ann's store") {
            try Self.storedUser(ben.peerId, in: ann)?.firstName == "Benjamin"
        }
        #expect(try Self.storedUser(ben.peerId, in: ann)?.photo.isEmpty == true)
        var bitmap = Bitmap(width: 32, height: 32)
        for y in 0..<32 { for x in 0..<32 { bitmap[x, y] = RGBA(r: UInt8(x * 8), g: 40, b: UInt8(y * 8), a: 255) } }
        // Ben sets it through the account (uploaded in parts, then `photos.uploadProfilePhoto`): his own stored user
        // has it from the answer, Ann's from the push.
        try await ben.setProfilePhoto(jpeg: try JPEGEncoder.encode(bitmap, quality: 80))
        #expect(try Self.storedUser(ben.peerId, in: ben)?.photo.isEmpty == false)
        try await AccountIntegrationTests.wait("Ben's photo in Ann's store") {
            try Self.storedUser(ben.peerId, in: ann)?.photo.isEmpty == false
        }
        // Ann fetches it (`inputPeerPhotoFileLocation`, Ben named by his stored access hash): a JPEG in her MediaBox.
        let small = try #require(try Self.storedUser(ben.peerId, in: ann)?.photo.first)
        let fetched = try await MediaTransferTests.finalEvent(
            MediaFetcher(account: ann).fetch(small.resource), timeout: 20)
        guard case .status(.local(let path)) = fetched else {
            Issue.record("the photo did not download: \(fetched)")
            throw CancellationError()
        }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(bytes.prefix(3)) == [0xFF, 0xD8, 0xFF], "a JPEG")
        // Without the account's peers the fetcher cannot name the peer.
        let bare = MediaFetcher(network: ann.network, mediaBox: ann.postbox.mediaBox)
        let refused = try await MediaTransferTests.finalEvent(
            bare.fetch(.cloudPeerPhoto(datacenterId: 2, peerId: ben.peerId.id.rawValue, photoId: 1, big: true)),
            timeout: 20)
        guard case .failed(.unsupportedResource) = refused else {
            Issue.record("\(refused)")
            throw CancellationError()
        }
        try await world.close([ann, ben])
    }

    /// A contact Ann adds on her first device is in her second device's list at once, and leaves it when she deletes
    /// it there.
    @Test(.timeLimit(.minutes(1))) func aContactAddedOnOneDeviceIsInTheOthersList() async throws {
        let world = try await World()
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622741", name: "Ann")
        let cat = try await AccountIntegrationTests.signUp(world, phone: "9996622743", name: "Cat")
        let annElsewhere = try await Self.secondDevice(world, phone: "9996622741")
        annElsewhere.start()
        try await AccountIntegrationTests.wait("the second device's state") { try Self.hasState(annElsewhere) }
        let peer = try await AccountIntegrationTests.introduce(phone: "9996622743", name: "Cat", to: ann)
        func contacts() throws -> Set<PeerId> {
            try annElsewhere.postbox.readTransactionSync { try $0.getContactPeerIds() }
        }
        try await AccountIntegrationTests.wait("Cat in the second device's contacts") { try contacts() == [cat.peerId] }
        guard case .inputPeerUser(let user) = peer else { throw CancellationError() }
        _ = try await ann.network.request(
            Api.functions.contacts.deleteContacts(id: [
                .inputUser(.init(userId: user.userId, accessHash: user.accessHash))
            ]))
        try await AccountIntegrationTests.wait("Cat gone from the second device's contacts") { try contacts().isEmpty }
        try await world.close([ann, cat, annElsewhere])
    }
}

import Foundation
import Network
import Postbox
import PostboxTesting
import ServerTestSupport
import SyncCore
import TelegramClient
import TelegramCore
import Testing

/// The client's flows in this process against a tg-server backend on 127.0.0.1: sign-in with answers (a wrong code
/// keeps the step, the right one goes on), profiles that let a later session find the server alone, peers by phone
/// and by `me`, sending until the server has the message, local search that ignores diacritics, and usernames.
@Suite struct ClientFlowTests {
    struct Fixture {
        let server: BackendServer
        let root: TemporaryDirectory
        let address: ServerAddress
        let pem: String

        init() async throws {
            server = try await BackendServer()
            root = TemporaryDirectory(prefix: "tg-client-flow")
            address = ServerAddress(host: "127.0.0.1", ports: server.endpoints.mapValues(\.port))
            let pemPath = root.path + "/server.pem"
            try server.writePublicKeyPEM(to: pemPath)
            pem = try String(contentsOfFile: pemPath, encoding: .utf8)
        }

        /// Answers for test number `phone` (code X five times, or `code`), signing up as `name`.
        static func answers(_ phone: String, code: String? = nil, name: String) -> SignInAnswers {
            SignInAnswers(
                phone: { phone }, code: { _ in code ?? String(repeating: String(Array(phone)[5]), count: 5) },
                password: { _ in nil }, name: { (name, "") })
        }

        func close() async throws {
            try await server.close()
            root.remove()
        }
    }

    @Test func signInSendAndSearch() async throws {
        let fixture = try await Fixture()
        do {
            try await run(fixture)
        } catch {
            try? await fixture.close()
            throw error
        }
        try await fixture.close()
    }

    func run(_ fixture: Fixture) async throws {
        let rootA = fixture.root.path + "/a"
        let rootB = fixture.root.path + "/b"
        // Ann: a wrong code is bad input and keeps the account at the code step; the next run goes on from there.
        let first = try ClientSession(root: rootA, server: fixture.address, publicKeyPEM: fixture.pem)
        do throws(ClientError) {
            let outcome = try await SignInFlow.run(
                session: first, name: "ann", server: fixture.address, publicKeyPEM: fixture.pem,
                answers: Fixture.answers("9996610001", code: "99999", name: "Ann"))
            Issue.record("a wrong code gave \(outcome)")
        } catch {
            guard case .badInput(let text) = error else { Issue.record("not bad input: \(error)"); return }
            #expect(text.contains("wrong code"))
        }
        await first.close()
        let second = try ClientSession(root: rootA, server: fixture.address, publicKeyPEM: fixture.pem)
        let outcome = try await SignInFlow.run(
            session: second, name: "ann", server: fixture.address, publicKeyPEM: fixture.pem,
            answers: Fixture.answers("9996610001", name: "Ann"))
        await second.close()
        guard case .signedIn = outcome else { Issue.record("not signed in: \(outcome)"); return }
        #expect(try ClientProfiles.load(root: rootA).accounts.map(\.name) == ["ann"])

        // Ben signs up under his own root.
        let benSession = try ClientSession(root: rootB, server: fixture.address, publicKeyPEM: fixture.pem)
        _ = try await SignInFlow.run(
            session: benSession, name: "ben", server: fixture.address, publicKeyPEM: fixture.pem,
            answers: Fixture.answers("9996620002", name: "Ben"))
        await benSession.close()

        // A later session finds Ann's server in her profile; she finds Ben by his number and writes to him.
        let session = try ClientSession(root: rootA)
        #expect(session.server == fixture.address)
        let ann = try await session.onlineAccount(named: nil, timeout: 20)
        #expect(try await PeerResolver.resolve(.me, account: ann) == ann.peerId)
        let ben = try await PeerResolver.resolve(.phone("9996620002"), account: ann)
        #expect(PeerResolver.chatName(ben, account: ann) == "Ben")
        #expect(try await PeerResolver.resolve(.title("ben"), account: ann) == ben)
        let (text, entities) = OutgoingText.parse("Ăn **phở** không?")
        let sent = try await MessageSending.send(
            [EnqueueMessage(text: text, entities: entities)], to: ben, account: ann, timeout: 20)
        #expect(sent.count == 1 && sent[0].id.namespace == Namespaces.Message.cloud && sent[0].text == "Ăn phở không?")
        let found = try await MessageCommands.search(ann, text: "pho", server: false, limit: 10)
        #expect(found.map(\.id) == sent.map(\.id))
        try await aSendAnsweredBeforeItsWaitIsFound(ann)
        let onServer = try await MessageCommands.search(ann, text: "phở", server: true, limit: 10)
        #expect(onServer.map(\.id) == sent.map(\.id))
        do throws(ClientError) {
            let peer = try await PeerResolver.resolve(.user(424242), account: ann)
            Issue.record("an unknown user resolved to \(peer)")
        } catch {
            guard case .notFound = error else { Issue.record("not notFound: \(error)"); return }
        }
        try await usernames(ann, ben: ben, rootB: rootB)
        await session.close()
    }

    /// A message the server answered before its sender began to wait is found by its `random_id`: the wait begins
    /// only after the local copy was replaced, which a fast server did (in 2 ms) before `tg send` read the local
    /// message again, and that send waited its 30 s out.
    func aSendAnsweredBeforeItsWaitIsFound(_ ann: Account) async throws {
        let enqueued = try ann.enqueueTracked([EnqueueMessage(text: "a note to self")], to: ann.peerId)
        let deadline = Date().addingTimeInterval(20)
        while try ann.postbox.readTransactionSync({ tx in try tx.getMessage(enqueued[0].localId) }) != nil {
            try #require(Date() < deadline, "the note was not sent within 20 s")
            try await Task.sleep(for: .milliseconds(10))
        }
        let sent = try await MessageSending.waitUntilSent(enqueued, in: ann.peerId, account: ann, timeout: 2)
        #expect(sent.map(\.text) == ["a note to self"] && sent[0].id.namespace == Namespaces.Message.cloud)
    }

    /// Ann takes a username: her own stored peer has it at once, Ben finds her by it through the server, he cannot take
    /// it too, a malformed name never reaches the server, and "" removes it.
    func usernames(_ ann: Account, ben: PeerId, rootB: String) async throws {
        #expect(try await ProfileCommands.setUsername(ann, "@ann_flow") == "ann_flow")
        let own = try ann.postbox.readTransactionSync { try $0.getPeer(ann.peerId) } as? TelegramUser
        #expect(own?.username == "ann_flow")
        let benSession = try ClientSession(root: rootB)
        let benAccount = try await benSession.onlineAccount(named: nil, timeout: 20)
        #expect(try await PeerResolver.resolve(.username("ann_flow"), account: benAccount) == ann.peerId)
        do throws(ClientError) {
            let taken = try await ProfileCommands.setUsername(benAccount, "ann_flow")
            Issue.record("Ben took Ann's username: \(String(describing: taken))")
        } catch {
            guard case .refused(let text) = error else { Issue.record("not refused: \(error)"); return }
            #expect(text.contains("taken"))
        }
        await benSession.close()
        do throws(ClientError) {
            _ = try await ProfileCommands.setUsername(ann, "ann flow")
            Issue.record("a name with a space was taken")
        } catch {
            guard case .badInput(let text) = error else { Issue.record("not bad input: \(error)"); return }
            #expect(text.contains("characters other than letters"))
        }
        #expect(try await ProfileCommands.setUsername(ann, "") == nil)
        let cleared = try ann.postbox.readTransactionSync { try $0.getPeer(ann.peerId) } as? TelegramUser
        #expect(cleared?.username == nil)
    }
}

import Foundation
import ServerAPI
import TLRuntime
import TelegramApi
import Testing

/// Voice notes listened to (core.telegram.org method `messages.readMessageContents`): a voice note arrives
/// `media_unread` on both sides; the recipient listening clears it on both copies, answers with its own pts, and the
/// sender's box gets `updateReadMessagesContents` with the sender's id; again, or by the sender, changes nothing.
@Suite struct MessageContentsTests {
    static func mediaUnread(_ harness: AttackHarness, key: Int64, peer: Api.InputPeer) throws -> [Int32: Bool] {
        let page = try harness.result(
            Api.functions.messages.getHistory(
                peer: peer, offsetId: 0, offsetDate: 0, addOffset: 0, limit: 50, maxId: 0, minId: 0, hash: 0),
            as: Api.messages.Messages.self, key: key)
        let messages: [Api.Message]
        switch page {
        case .messages(let body): messages = body.messages
        case .messagesSlice(let body): messages = body.messages
        case .channelMessages(let body): messages = body.messages
        case .messagesNotModified: messages = []
        }
        var result: [Int32: Bool] = [:]
        for case .message(let message) in messages { result[message.id] = message.mediaUnread }
        return result
    }

    static func pts(_ harness: AttackHarness, key: Int64) throws -> Int32 {
        guard case .state(let state) = try harness.result(Api.functions.updates.getState(), as: Api.updates.State.self, key: key)
        else { return -1 }
        return state.pts
    }

    @Test func aVoiceNoteListenedToIsReadOnBothSides() throws {
        let harness = try AttackHarness()
        let ann = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        let toBen = Api.InputPeer.inputPeerUser(.init(userId: ben.id, accessHash: ben.accessHash))
        let toAnn = Api.InputPeer.inputPeerUser(.init(userId: ann.id, accessHash: ann.accessHash))
        // Ann's text (ids 1) and voice note (2), the same ids in both boxes.
        #expect(harness.error(Api.functions.messages.sendMessage(peer: toBen, message: "listen", randomId: 1), key: 1) == nil)
        #expect(harness.error(Api.functions.upload.saveFilePart(fileId: 5, filePart: 0, bytes: Array(repeating: 7, count: 300)), key: 1) == nil)
        let voice = Api.InputMedia.inputMediaUploadedDocument(
            .init(
                file: .inputFile(.init(id: 5, parts: 1, name: "voice.ogg", md5Checksum: "")), mimeType: "audio/ogg",
                attributes: [.documentAttributeAudio(.init(voice: true, duration: 2))]))
        #expect(harness.error(Api.functions.messages.sendMedia(peer: toBen, media: voice, message: "", randomId: 2), key: 1) == nil)
        #expect(try Self.mediaUnread(harness, key: 1, peer: toBen) == [1: false, 2: true])
        #expect(try Self.mediaUnread(harness, key: 2, peer: toAnn) == [1: false, 2: true])

        // Ann (the sender) "listening" changes nothing.
        let annBefore = try Self.pts(harness, key: 1)
        let bySender = try harness.result(
            Api.functions.messages.readMessageContents(id: [2]), as: Api.messages.AffectedMessages.self, key: 1)
        guard case .affectedMessages(let nothing) = bySender else { Issue.record("\(bySender)"); return }
        #expect(nothing.ptsCount == 0 && nothing.pts == annBefore)

        // Ben listens (the text's id is no voice note and changes nothing): his pts moves by one, both copies read.
        let benBefore = try Self.pts(harness, key: 2)
        let listened = try harness.result(
            Api.functions.messages.readMessageContents(id: [1, 2, 99]), as: Api.messages.AffectedMessages.self, key: 2)
        guard case .affectedMessages(let affected) = listened else { Issue.record("\(listened)"); return }
        #expect(affected.ptsCount == 1 && affected.pts == benBefore + 1)
        #expect(try Self.mediaUnread(harness, key: 1, peer: toBen) == [1: false, 2: false])
        #expect(try Self.mediaUnread(harness, key: 2, peer: toAnn) == [1: false, 2: false])

        // Ann's box: updateReadMessagesContents with her id, in her pts sequence (what getDifference gives).
        let difference = try harness.result(
            Api.functions.updates.getDifference(pts: annBefore, date: 0, qts: 0), as: Api.updates.Difference.self, key: 1)
        guard case .difference(let caughtUp) = difference else { Issue.record("\(difference)"); return }
        let contents = caughtUp.otherUpdates.compactMap { update -> Api.Update.Cons_updateReadMessagesContents? in
            if case .updateReadMessagesContents(let body) = update { return body }
            return nil
        }
        #expect(contents.count == 1 && contents.first?.messages == [2] && contents.first?.pts == annBefore + 1)
        #expect(try Self.pts(harness, key: 1) == annBefore + 1)

        // Again: nothing left to read.
        let again = try harness.result(
            Api.functions.messages.readMessageContents(id: [2]), as: Api.messages.AffectedMessages.self, key: 2)
        guard case .affectedMessages(let none) = again else { Issue.record("\(again)"); return }
        #expect(none.ptsCount == 0 && none.pts == benBefore + 1)
    }
}

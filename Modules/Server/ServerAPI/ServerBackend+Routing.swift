import MTProtoServer
import TLRuntime
import TelegramApi

/// Which service answers which method.
extension ServerBackend {
    /// Methods anyone may call, signed in or not; `nil` when `call` is not one of them.
    func routeSignedOut(_ call: RPCCall) throws -> [UInt8]? {
        switch call.function {
        case let f as Api.functions.auth.sendCode:
            return try sendCode(f, authKeyId: call.authKeyId, dc: call.dcId).serialized()
        case let f as Api.functions.auth.signIn:
            return try signIn(f, authKeyId: call.authKeyId, dc: call.dcId).serialized()
        case let f as Api.functions.auth.signUp:
            return try signUp(f, authKeyId: call.authKeyId, dc: call.dcId).serialized()
        case let f as Api.functions.auth.importAuthorization:
            return try importAuthorization(f, authKeyId: call.authKeyId, dc: call.dcId).serialized()
        case let f as Api.functions.auth.checkPassword:
            return try checkPassword(f, authKeyId: call.authKeyId, dc: call.dcId).serialized()
        case is Api.functions.account.getPassword:
            // Between SESSION_PASSWORD_NEEDED and auth.checkPassword the key is not signed in yet.
            if let userId = pendingPasswords.userId(authKeyId: call.authKeyId) {
                return try getPassword(userId: userId).serialized()
            }
            return nil
        default: return nil
        }
    }

    /// File methods: the only ones a key may call on a DC other than its account's.
    static func isFileMethod(_ function: any TLFunction) -> Bool {
        function.functionName.hasPrefix("upload.") || function is Api.functions.auth.exportAuthorization
            || function is Api.functions.auth.logOut
    }

    /// Methods of a signed-in account; `nil` for a method nothing serves. `signedIn` checks the key's authorization
    /// (and the account's DC) only once the method is known to be served, so an unknown method answers
    /// `METHOD_NOT_IMPLEMENTED` signed in or not.
    func routeSignedIn(_ function: any TLFunction, signedIn: () throws -> Caller) throws -> [UInt8]? {
        switch function {
        // auth, account
        case is Api.functions.auth.logOut: return try logOut(try signedIn()).serialized()
        case is Api.functions.auth.resetAuthorizations: return try resetAuthorizations(try signedIn())
        case let f as Api.functions.auth.exportAuthorization:
            return try exportAuthorization(f, caller: try signedIn()).serialized()
        case is Api.functions.account.getAuthorizations: return try authorizations(try signedIn()).serialized()
        case let f as Api.functions.account.checkUsername: return try checkUsername(f, caller: try signedIn())
        case let f as Api.functions.account.updateUsername:
            return try updateUsername(f, caller: try signedIn()).serialized()
        case let f as Api.functions.account.updateProfile:
            return try updateProfile(f, caller: try signedIn()).serialized()
        case let f as Api.functions.account.updateNotifySettings:
            return Reply.bool(try updateNotifySettings(f, caller: try signedIn()))
        case let f as Api.functions.account.getNotifySettings:
            return try getNotifySettings(f, caller: try signedIn()).serialized()
        case is Api.functions.account.resetNotifySettings:
            return Reply.bool(try resetNotifySettings(caller: try signedIn()))
        case let f as Api.functions.account.registerDevice: return try registerDevice(f, caller: try signedIn())
        case let f as Api.functions.account.unregisterDevice: return try unregisterDevice(f, caller: try signedIn())
        case let f as Api.functions.account.updateStatus: return try updateStatus(f, caller: try signedIn())
        case let f as Api.functions.account.getPrivacy: return try getPrivacy(f, caller: try signedIn()).serialized()
        case let f as Api.functions.account.setPrivacy: return try setPrivacy(f, caller: try signedIn()).serialized()
        // users, contacts
        case let f as Api.functions.users.getUsers: return try getUsers(f, caller: try signedIn())
        case let f as Api.functions.users.getFullUser: return try getFullUser(f, caller: try signedIn()).serialized()
        case let f as Api.functions.contacts.resolveUsername:
            return try resolveUsername(f, caller: try signedIn()).serialized()
        case let f as Api.functions.contacts.search: return try searchContacts(f, caller: try signedIn()).serialized()
        case let f as Api.functions.contacts.importContacts:
            return try importContacts(f, caller: try signedIn()).serialized()
        case let f as Api.functions.contacts.getContacts: return try getContacts(f, caller: try signedIn()).serialized()
        case let f as Api.functions.contacts.deleteContacts:
            return try deleteContacts(f, caller: try signedIn()).serialized()
        case let f as Api.functions.contacts.deleteByPhones: return try deleteByPhones(f, caller: try signedIn())
        case let f as Api.functions.contacts.addContact: return try addContact(f, caller: try signedIn()).serialized()
        case is Api.functions.contacts.getStatuses: return try getStatuses(try signedIn())
        case let f as Api.functions.contacts.block: return try block(f, caller: try signedIn())
        case let f as Api.functions.contacts.unblock: return try unblock(f, caller: try signedIn())
        case let f as Api.functions.contacts.getBlocked: return try getBlocked(f, caller: try signedIn()).serialized()
        // messages
        case let f as Api.functions.messages.sendMessage: return try sendMessage(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.getWebPagePreview:
            return try getWebPagePreview(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.getWebPage: return try getWebPage(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.getHistory: return try getHistory(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.getMessages: return try getMessages(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.search: return try search(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.searchGlobal:
            return try searchGlobal(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.getDialogs: return try getDialogs(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.getPeerDialogs:
            return try getPeerDialogs(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.toggleDialogPin: return try toggleDialogPin(f, caller: try signedIn())
        case let f as Api.functions.messages.readHistory: return try readHistory(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.readMessageContents:
            return try readMessageContents(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.getAvailableReactions:
            _ = try signedIn()
            return getAvailableReactions(f).serialized()
        case let f as Api.functions.messages.sendReaction:
            return try sendReaction(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.getMessagesReactions:
            return try getMessagesReactions(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.getMessageReactionsList:
            return try getMessageReactionsList(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.setChatAvailableReactions:
            return try setChatAvailableReactions(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.sendVote: return try sendVote(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.getPollResults:
            return try getPollResults(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.getPollVotes:
            return try getPollVotes(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.saveDraft: return Reply.bool(try saveDraft(f, caller: try signedIn()))
        case let f as Api.functions.messages.saveGif: return try saveGif(f, caller: try signedIn())
        case let f as Api.functions.messages.getSavedGifs:
            return try getSavedGifs(f, caller: try signedIn()).serialized()
        case is Api.functions.messages.getAllDrafts: return try getAllDrafts(caller: try signedIn()).serialized()
        case is Api.functions.messages.clearAllDrafts: return Reply.bool(try clearAllDrafts(caller: try signedIn()))
        case let f as Api.functions.messages.getScheduledHistory:
            return try getScheduledHistory(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.getScheduledMessages:
            return try getScheduledMessages(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.sendScheduledMessages:
            return try sendScheduledMessages(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.deleteScheduledMessages:
            return try deleteScheduledMessages(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.editMessage: return try editMessage(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.deleteMessages:
            return try deleteMessages(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.setTyping: return try setTyping(f, caller: try signedIn())
        case let f as Api.functions.messages.updatePinnedMessage:
            return try updatePinnedMessage(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.unpinAllMessages:
            return try unpinAllMessages(f, caller: try signedIn()).serialized()
        // media and files
        case let f as Api.functions.messages.sendMedia: return try sendMedia(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.sendMultiMedia:
            return try sendMultiMedia(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.uploadMedia: return try uploadMedia(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.forwardMessages:
            return try forwardMessages(f, caller: try signedIn()).serialized()
        case let f as Api.functions.upload.saveFilePart: return try saveFilePart(f, caller: try signedIn())
        case let f as Api.functions.upload.saveBigFilePart: return try saveBigFilePart(f, caller: try signedIn())
        case let f as Api.functions.upload.getFile: return try getFile(f, caller: try signedIn()).serialized()
        case let f as Api.functions.photos.uploadProfilePhoto:
            return try uploadProfilePhoto(f, caller: try signedIn()).serialized()
        // two-step verification
        case is Api.functions.account.getPassword: return try getPassword(userId: try signedIn().userId).serialized()
        case let f as Api.functions.account.updatePasswordSettings:
            return try updatePasswordSettings(f, caller: try signedIn())
        // stickers
        case let f as Api.functions.messages.getStickerSet:
            return try getStickerSet(f, caller: try signedIn()).serialized()
        case is Api.functions.messages.getAllStickers: return try getAllStickers(try signedIn()).serialized()
        case let f as Api.functions.messages.installStickerSet:
            return try installStickerSet(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.uninstallStickerSet:
            return try uninstallStickerSet(f, caller: try signedIn())
        // basic groups
        case let f as Api.functions.messages.createChat: return try createChat(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.addChatUser: return try addChatUser(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.deleteChatUser:
            return try deleteChatUser(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.editChatTitle:
            return try editChatTitle(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.editChatPhoto:
            return try editChatPhoto(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.getFullChat: return try getFullChat(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.getChats: return try getChats(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.getCommonChats:
            return try getCommonChats(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.migrateChat:
            return try migrateChat(f, caller: try signedIn()).serialized()
        // invite links
        case let f as Api.functions.messages.exportChatInvite:
            return try exportChatInvite(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.checkChatInvite:
            return try checkChatInvite(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.importChatInvite:
            return try importChatInvite(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.getExportedChatInvites:
            return try getExportedChatInvites(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.getAdminsWithInvites:
            return try getAdminsWithInvites(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.editExportedChatInvite:
            return try editExportedChatInvite(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.deleteExportedChatInvite:
            return try deleteExportedChatInvite(f, caller: try signedIn())
        case let f as Api.functions.messages.hideChatJoinRequest:
            return try hideChatJoinRequest(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.getChatInviteImporters:
            return try getChatInviteImporters(f, caller: try signedIn()).serialized()
        // supergroups and channels
        case let f as Api.functions.channels.createChannel:
            return try createChannel(f, caller: try signedIn()).serialized()
        case let f as Api.functions.channels.getChannels: return try getChannels(f, caller: try signedIn()).serialized()
        case let f as Api.functions.channels.getFullChannel:
            return try getFullChannel(f, caller: try signedIn()).serialized()
        case let f as Api.functions.channels.joinChannel: return try joinChannel(f, caller: try signedIn()).serialized()
        case let f as Api.functions.channels.leaveChannel:
            return try leaveChannel(f, caller: try signedIn()).serialized()
        case let f as Api.functions.channels.inviteToChannel:
            return try inviteToChannel(f, caller: try signedIn()).serialized()
        case let f as Api.functions.channels.editTitle:
            return try editChannelTitle(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.editChatAbout: return try editChannelAbout(f, caller: try signedIn())
        case let f as Api.functions.channels.deleteChannel:
            return try deleteChannel(f, caller: try signedIn()).serialized()
        case let f as Api.functions.channels.checkUsername: return try checkChannelUsername(f, caller: try signedIn())
        case let f as Api.functions.channels.updateUsername:
            return try updateChannelUsername(f, caller: try signedIn())
        case let f as Api.functions.channels.getMessages:
            return try getChannelMessages(f, caller: try signedIn()).serialized()
        case let f as Api.functions.channels.deleteMessages:
            return try deleteChannelMessages(f, caller: try signedIn()).serialized()
        case let f as Api.functions.channels.readHistory: return try readChannelHistory(f, caller: try signedIn())
        case let f as Api.functions.messages.getMessagesViews:
            return try getMessagesViews(f, caller: try signedIn()).serialized()
        case let f as Api.functions.channels.editAdmin:
            return try editChannelAdmin(f, caller: try signedIn()).serialized()
        case let f as Api.functions.channels.editBanned:
            return try editChannelBanned(f, caller: try signedIn()).serialized()
        case let f as Api.functions.channels.getParticipants:
            return try getChannelParticipants(f, caller: try signedIn()).serialized()
        case let f as Api.functions.channels.getParticipant:
            return try getChannelParticipant(f, caller: try signedIn()).serialized()
        case let f as Api.functions.channels.editPhoto:
            return try editChannelPhoto(f, caller: try signedIn()).serialized()
        case let f as Api.functions.channels.toggleSlowMode:
            return try toggleSlowMode(f, caller: try signedIn()).serialized()
        case let f as Api.functions.channels.toggleSignatures:
            return try toggleSignatures(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.editChatDefaultBannedRights:
            return try editChatDefaultBannedRights(f, caller: try signedIn()).serialized()
        case let f as Api.functions.updates.getChannelDifference:
            return try getChannelDifference(f, caller: try signedIn()).serialized()
        // secret chats
        case let f as Api.functions.messages.getDhConfig:
            _ = try signedIn()
            return try getDhConfig(f).serialized()
        case let f as Api.functions.messages.requestEncryption:
            return try requestEncryption(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.acceptEncryption:
            return try acceptEncryption(f, caller: try signedIn()).serialized()
        case let f as Api.functions.messages.discardEncryption: return try discardEncryption(f, caller: try signedIn())
        case let f as Api.functions.messages.sendEncrypted:
            return try sendEncrypted(
                peer: f.peer, randomId: f.randomId, data: f.data, service: false, file: nil, caller: try signedIn()
            ).serialized()
        case let f as Api.functions.messages.sendEncryptedService:
            return try sendEncrypted(
                peer: f.peer, randomId: f.randomId, data: f.data, service: true, file: nil, caller: try signedIn()
            ).serialized()
        case let f as Api.functions.messages.sendEncryptedFile:
            return try sendEncrypted(
                peer: f.peer, randomId: f.randomId, data: f.data, service: false, file: f.file, caller: try signedIn()
            ).serialized()
        case let f as Api.functions.messages.readEncryptedHistory:
            return try readEncryptedHistory(f, caller: try signedIn())
        case let f as Api.functions.messages.setEncryptedTyping:
            return try setEncryptedTyping(f, caller: try signedIn())
        case let f as Api.functions.messages.receivedQueue: return try receivedQueue(f, caller: try signedIn())
        // updates
        case is Api.functions.updates.getState: return try getState(try signedIn()).serialized()
        case let f as Api.functions.updates.getDifference:
            return try getDifference(f, caller: try signedIn()).serialized()
        default:
            return nil
        }
    }
}

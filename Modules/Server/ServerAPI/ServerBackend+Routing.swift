import MTProtoServer
import TLRuntime
import TelegramApi

/// Which service answers which method.
extension ServerBackend {
    /// Methods anyone may call, signed in or not; `nil` when `call` is not one of them.
    func routeSignedOut(_ call: RPCCall) throws -> [UInt8]? {
        switch call.function {
        case let f as Api.functions.auth.sendCode: return try sendCode(f, dc: call.dcId).serialized()
        case let f as Api.functions.auth.signIn: return try signIn(f, authKeyId: call.authKeyId, dc: call.dcId).serialized()
        case let f as Api.functions.auth.signUp: return try signUp(f, authKeyId: call.authKeyId, dc: call.dcId).serialized()
        case let f as Api.functions.auth.importAuthorization:
            return try importAuthorization(f, authKeyId: call.authKeyId, dc: call.dcId).serialized()
        case let f as Api.functions.auth.checkPassword:
            return try checkPassword(f, authKeyId: call.authKeyId, dc: call.dcId).serialized()
        case is Api.functions.account.getPassword:
            // Between SESSION_PASSWORD_NEEDED and auth.checkPassword the key is not signed in yet.
            if let userId = pendingPassword(authKeyId: call.authKeyId) { return try getPassword(userId: userId).serialized() }
            return nil
        default: return nil
        }
    }

    /// File methods: the only ones a key may call on a DC other than its account's.
    static func isFileMethod(_ function: any TLFunction) -> Bool {
        function.functionName.hasPrefix("upload.") || function is Api.functions.auth.exportAuthorization
            || function is Api.functions.auth.logOut
    }

    /// The methods `routeSignedIn` serves: anything else answers `METHOD_NOT_IMPLEMENTED` before the key's
    /// authorization is looked at, as for a client that is not signed in.
    static let signedInMethods: Set<String> = [
        "auth.logOut", "auth.resetAuthorizations", "auth.exportAuthorization", "account.getAuthorizations",
        "account.checkUsername", "account.updateUsername", "account.updateProfile", "users.getUsers", "users.getFullUser",
        "contacts.resolveUsername", "contacts.search", "contacts.importContacts", "contacts.getContacts",
        "messages.sendMessage", "messages.getHistory", "messages.getMessages", "messages.search", "messages.searchGlobal",
        "messages.getDialogs", "messages.getPeerDialogs", "messages.toggleDialogPin", "messages.readHistory",
        "messages.editMessage", "messages.deleteMessages", "messages.setTyping", "updates.getState", "updates.getDifference",
        "messages.createChat", "messages.addChatUser", "messages.deleteChatUser", "messages.editChatTitle", "messages.getFullChat",
        "messages.getChats", "messages.sendMedia", "messages.sendMultiMedia", "messages.uploadMedia", "messages.forwardMessages",
        "upload.saveFilePart", "upload.saveBigFilePart", "upload.getFile", "messages.getStickerSet", "messages.getAllStickers",
        "messages.installStickerSet", "messages.uninstallStickerSet", "account.getPassword", "account.updatePasswordSettings",
        "photos.uploadProfilePhoto",
    ]

    /// Methods of a signed-in account.
    func routeSignedIn(_ function: any TLFunction, caller: Caller) throws -> [UInt8] {
        switch function {
        // auth, account
        case is Api.functions.auth.logOut: return try logOut(caller).serialized()
        case is Api.functions.auth.resetAuthorizations: return try resetAuthorizations(caller)
        case let f as Api.functions.auth.exportAuthorization: return try exportAuthorization(f, caller: caller).serialized()
        case is Api.functions.account.getAuthorizations: return try authorizations(caller).serialized()
        case let f as Api.functions.account.checkUsername: return try checkUsername(f, caller: caller)
        case let f as Api.functions.account.updateUsername: return try updateUsername(f, caller: caller).serialized()
        case let f as Api.functions.account.updateProfile: return try updateProfile(f, caller: caller).serialized()
        // users, contacts
        case let f as Api.functions.users.getUsers: return try getUsers(f, caller: caller)
        case let f as Api.functions.users.getFullUser: return try getFullUser(f, caller: caller).serialized()
        case let f as Api.functions.contacts.resolveUsername: return try resolveUsername(f, caller: caller).serialized()
        case let f as Api.functions.contacts.search: return try searchContacts(f, caller: caller).serialized()
        case let f as Api.functions.contacts.importContacts: return try importContacts(f, caller: caller).serialized()
        case is Api.functions.contacts.getContacts: return try getContacts(caller).serialized()
        // messages
        case let f as Api.functions.messages.sendMessage: return try sendMessage(f, caller: caller).serialized()
        case let f as Api.functions.messages.getHistory: return try getHistory(f, caller: caller).serialized()
        case let f as Api.functions.messages.getMessages: return try getMessages(f, caller: caller).serialized()
        case let f as Api.functions.messages.search: return try search(f, caller: caller).serialized()
        case let f as Api.functions.messages.searchGlobal: return try searchGlobal(f, caller: caller).serialized()
        case let f as Api.functions.messages.getDialogs: return try getDialogs(f, caller: caller).serialized()
        case let f as Api.functions.messages.getPeerDialogs: return try getPeerDialogs(f, caller: caller).serialized()
        case let f as Api.functions.messages.toggleDialogPin: return try toggleDialogPin(f, caller: caller)
        case let f as Api.functions.messages.readHistory: return try readHistory(f, caller: caller).serialized()
        case let f as Api.functions.messages.editMessage: return try editMessage(f, caller: caller).serialized()
        case let f as Api.functions.messages.deleteMessages: return try deleteMessages(f, caller: caller).serialized()
        case let f as Api.functions.messages.setTyping: return try setTyping(f, caller: caller)
        // media and files
        case let f as Api.functions.messages.sendMedia: return try sendMedia(f, caller: caller).serialized()
        case let f as Api.functions.messages.sendMultiMedia: return try sendMultiMedia(f, caller: caller).serialized()
        case let f as Api.functions.messages.uploadMedia: return try uploadMedia(f, caller: caller).serialized()
        case let f as Api.functions.messages.forwardMessages: return try forwardMessages(f, caller: caller).serialized()
        case let f as Api.functions.upload.saveFilePart: return try saveFilePart(f, caller: caller)
        case let f as Api.functions.upload.saveBigFilePart: return try saveBigFilePart(f, caller: caller)
        case let f as Api.functions.upload.getFile: return try getFile(f, caller: caller).serialized()
        case let f as Api.functions.photos.uploadProfilePhoto: return try uploadProfilePhoto(f, caller: caller).serialized()
        // two-step verification
        case is Api.functions.account.getPassword: return try getPassword(userId: caller.userId).serialized()
        case let f as Api.functions.account.updatePasswordSettings: return try updatePasswordSettings(f, caller: caller)
        // stickers
        case let f as Api.functions.messages.getStickerSet: return try getStickerSet(f, caller: caller).serialized()
        case is Api.functions.messages.getAllStickers: return try getAllStickers(caller).serialized()
        case let f as Api.functions.messages.installStickerSet: return try installStickerSet(f, caller: caller).serialized()
        case let f as Api.functions.messages.uninstallStickerSet: return try uninstallStickerSet(f, caller: caller)
        // basic groups
        case let f as Api.functions.messages.createChat: return try createChat(f, caller: caller).serialized()
        case let f as Api.functions.messages.addChatUser: return try addChatUser(f, caller: caller).serialized()
        case let f as Api.functions.messages.deleteChatUser: return try deleteChatUser(f, caller: caller).serialized()
        case let f as Api.functions.messages.editChatTitle: return try editChatTitle(f, caller: caller).serialized()
        case let f as Api.functions.messages.getFullChat: return try getFullChat(f, caller: caller).serialized()
        case let f as Api.functions.messages.getChats: return try getChats(f, caller: caller).serialized()
        // updates
        case is Api.functions.updates.getState: return try getState(caller).serialized()
        case let f as Api.functions.updates.getDifference: return try getDifference(f, caller: caller).serialized()
        default:
            if function.functionName.hasPrefix("channels.") { throw APIError.channelsNotServed }
            throw APIError.badRequest("METHOD_NOT_IMPLEMENTED")
        }
    }
}

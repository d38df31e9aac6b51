import MTProtoServer
import ServerStore
import TLRuntime
import TelegramApi

/// `updates.*` (core.telegram.org "Working with updates"): the state, the difference, and pushing to sessions.
extension ServerBackend {
    /// At most this many stored updates go in one `updates.difference`; past it the answer is a
    /// `differenceSlice` with the state reached.
    static let differenceSliceLimit = 1000
    /// At most this many channels are named by `updateChannelTooLong` in one difference.
    static let channelsTooLongLimit = 100

    /// One push, decided inside a transaction and handed to the gateway after it commits.
    struct Push {
        let authKeyIds: [Int64]
        let updates: Api.Updates
        /// Whether the session that made the call gets it too: a push in the seq sequence does (`seqPush`), since
        /// the call's result does not carry its seq and the session would otherwise see a gap at the next one.
        var includesCaller = false
    }

    /// Hands pushes to the gateway, never to the session that made the call (it gets them as its result) unless the
    /// push says so: all of them in one batch (a channel post's push to every member is one look-up and one task per
    /// event loop).
    func send(_ pushes: [Push], caller: Caller?) {
        var batch: [UpdateGateway.Push] = []
        batch.reserveCapacity(pushes.count)
        for push in pushes where !push.authKeyIds.isEmpty {
            batch.append(
                .init(
                    body: push.updates.serialized(), authKeyIds: push.authKeyIds,
                    except: push.includesCaller ? nil : caller?.target))
        }
        if !batch.isEmpty { updates.push(batch) }
    }

    func apiState(_ state: UpdateStateRecord, unread: Int32 = 0) -> Api.updates.State {
        .state(
            .init(
                pts: Int32(truncatingIfNeeded: state.pts), qts: Int32(truncatingIfNeeded: state.qts), date: now,
                seq: Int32(truncatingIfNeeded: state.seq), unreadCount: unread))
    }

    func getState(_ caller: Caller) throws -> Api.updates.State {
        guard let state = try store.read({ tx in try tx.updateState(userId: caller.userId) }) else {
            throw APIError.authKeyUnregistered
        }
        return apiState(state)
    }

    func getDifference(_ call: Api.functions.updates.getDifference, caller: Caller) throws -> Api.updates.Difference {
        try store.read { tx in
            guard let state = try tx.updateState(userId: caller.userId) else { throw APIError.authKeyUnregistered }
            let from = Int64(call.pts)
            let fromQts = Int64(max(0, call.qts))
            // Secret chats changed since the client's date come as `updateEncryption` (they are in no sequence).
            // Only the chats this device holds (a chat bound to another device of the account is not its own).
            let encryption = try tx.encryptedChats(userId: caller.userId, changedSince: call.date, limit: 100)
                .filter { !($0.state == .requested && $0.adminId == caller.userId) }
                .filter { $0.isHeld(by: caller.userId, authKeyId: caller.authKeyId) }
            // Channels of the caller's that changed since its date come as `updateChannelTooLong` (core.telegram.org
            // "Working with updates": the client then asks `updates.getChannelDifference` for each).
            let channels = try tx.channelsUpdated(
                userId: caller.userId, since: call.date, limit: Self.channelsTooLongLimit)
            // Updates without pts (`updateChatDefaultBannedRights`) made since the client's pts, or at it from its date.
            let withoutPts = try tx.updatesWithoutPts(
                owner: caller.userId, after: from, date: call.date, upTo: state.pts, limit: Self.differenceSliceLimit)
            guard
                from < state.pts || fromQts < state.qts || !encryption.isEmpty || !channels.isEmpty
                    || !withoutPts.isEmpty
            else {
                return .differenceEmpty(.init(date: now, seq: Int32(truncatingIfNeeded: state.seq)))
            }
            if let total = call.ptsTotalLimit, total > 0, state.pts - from > Int64(total) {
                return .differenceTooLong(.init(pts: Int32(truncatingIfNeeded: state.pts)))
            }
            var limit = Self.differenceSliceLimit
            if let ptsLimit = call.ptsLimit, ptsLimit > 0 { limit = min(limit, Int(ptsLimit)) }
            let records = from < state.pts ? try tx.updates(owner: caller.userId, after: from, limit: limit) : []
            var qtsLimit = Self.differenceSliceLimit
            if let value = call.qtsLimit, value > 0 { qtsLimit = min(qtsLimit, Int(value)) }
            let qtsRecords =
                fromQts < state.qts
                ? try tx.qtsUpdates(owner: caller.userId, after: fromQts, limit: qtsLimit, authKey: caller.authKeyId)
                : []
            var newMessages: [Api.Message] = []
            var newEncrypted: [Api.EncryptedMessage] = []
            var others: [Api.Update] = encryption.map {
                .updateEncryption(.init(chat: apiEncryptedChat($0, viewer: caller.userId), date: $0.changed))
            }
            others += channels.map {
                .updateChannelTooLong(.init(channelId: $0.id, pts: Int32(truncatingIfNeeded: $0.pts)))
            }
            var userIds: Set<Int64> = [caller.userId]
            var chatIds: Set<Int64> = []
            for chat in encryption { userIds.formUnion([chat.adminId, chat.participantId]) }
            for record in records {
                guard let update = try? Api.Update(tlBytes: record.body) else { continue }
                if case .updateNewMessage(let new) = update {
                    newMessages.append(new.message)
                    Self.collectPeers(of: new.message, users: &userIds, chats: &chatIds)
                } else {
                    if case .updateEditMessage(let edit) = update {
                        Self.collectPeers(of: edit.message, users: &userIds, chats: &chatIds)
                    }
                    if case .updatePinnedMessages(let pin) = update {
                        switch pin.peer {
                        case .peerUser(let user): userIds.insert(user.userId)
                        case .peerChat(let chat): chatIds.insert(chat.chatId)
                        case .peerChannel: break
                        }
                    }
                    others.append(update)
                }
            }
            let reached = records.last?.pts ?? state.pts
            for record in withoutPts where record.pts <= reached {
                guard let update = try? Api.Update(tlBytes: record.body) else { continue }
                if case .updateChatDefaultBannedRights(let rights) = update, case .peerChat(let chat) = rights.peer {
                    chatIds.insert(chat.chatId)
                }
                others.append(update)
            }
            for record in qtsRecords {
                guard case .updateNewEncryptedMessage(let new)? = try? Api.Update(tlBytes: record.body) else {
                    continue
                }
                newEncrypted.append(new.message)
            }
            let users = try tx.users(ids: userIds).sorted { $0.id < $1.id }.map {
                try apiUser($0, viewer: caller.userId, tx: tx)
            }
            let chats =
                try chatIds.sorted().compactMap { try tx.chat(id: $0) }.map {
                    apiChat($0, viewer: caller.userId, tx: tx)
                } + channels.map { try apiChannel($0, viewer: caller.userId, tx: tx) }
            let reachedQts = qtsRecords.last?.qts ?? state.qts
            if reached >= state.pts && reachedQts >= state.qts {
                return .difference(
                    .init(
                        newMessages: newMessages, newEncryptedMessages: newEncrypted, otherUpdates: others,
                        chats: chats, users: users, state: apiState(state)))
            }
            var intermediate = state
            intermediate.pts = reached
            intermediate.qts = reachedQts
            return .differenceSlice(
                .init(
                    newMessages: newMessages, newEncryptedMessages: newEncrypted, otherUpdates: others, chats: chats,
                    users: users,
                    intermediateState: apiState(intermediate)))
        }
    }

    static func collectPeers(of message: Api.Message, users: inout Set<Int64>, chats: inout Set<Int64>) {
        func add(_ peer: Api.Peer?) {
            switch peer {
            case .peerUser(let user): users.insert(user.userId)
            case .peerChat(let chat): chats.insert(chat.chatId)
            default: break
            }
        }
        switch message {
        case .message(let m):
            add(m.fromId)
            add(m.peerId)
        case .messageService(let m):
            add(m.fromId)
            add(m.peerId)
            if case .messageActionChatAddUser(let action) = m.action { users.formUnion(action.users) }
            if case .messageActionChatCreate(let action) = m.action { users.formUnion(action.users) }
            if case .messageActionChatDeleteUser(let action) = m.action { users.insert(action.userId) }
            if case .messageActionChatJoinedByLink(let action) = m.action { users.insert(action.inviterId) }
        case .messageEmpty: break
        }
    }
}

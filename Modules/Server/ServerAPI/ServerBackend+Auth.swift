import CryptoUtils
import Foundation
import Logging
import MTProtoServer
import SecretFiles
import ServerStore
import TLRuntime
import TelegramApi

/// `auth.*` (core.telegram.org "User Authorization"): login codes, sign-in and sign-up, migration between DCs.
extension ServerBackend {
    /// Digits only: "+999 66 1 0001" → "9996610001".
    static func normalizedPhone(_ phone: String) -> String { phone.filter(\.isNumber) }

    /// The DC a phone number belongs to: Telegram's test numbers `99966XYYYY` belong to DC X; others to the DC of
    /// their account, or (new numbers) the DC that was asked.
    func homeDc(phone: String, asked: Int32, existing: UserRecord?) -> Int32? {
        let digits = Array(phone)
        if digits.count == 10, phone.hasPrefix("99966"), let dc = Int32(String(digits[5])) {
            return dataCenters.contains { $0.id == dc } ? dc : nil
        }
        return existing?.dc ?? asked
    }

    static func isTestNumber(_ phone: String) -> Bool { phone.count == 10 && phone.hasPrefix("99966") }

    /// `auth.sendCode`. Limited per key (`AttemptLimit.codeRequestsPerKey`, `FLOOD_WAIT_X`) and, except for test
    /// numbers, whose codes are public, per number (`codeRequestsPerPhone`, `PHONE_NUMBER_FLOOD`).
    func sendCode(_ call: Api.functions.auth.sendCode, authKeyId: Int64, dc: Int32) throws -> Api.auth.SentCode {
        let phone = Self.normalizedPhone(call.phoneNumber)
        guard (5...15).contains(phone.count) else { throw APIError.badRequest("PHONE_NUMBER_INVALID") }
        let existing = try store.read { tx in try tx.user(phone: phone) }
        guard let home = homeDc(phone: phone, asked: dc, existing: existing) else {
            throw APIError.badRequest("PHONE_NUMBER_INVALID")
        }
        guard home == dc else { throw APIError.migrate("PHONE", to: home) }
        let limitsNumber = !Self.isTestNumber(phone)
        try checkAttempts(.codeRequestsPerKey, String(authKeyId)) { APIError.floodWait(Int($0)) }
        if limitsNumber {
            try checkAttempts(.codeRequestsPerPhone, phone) { _ in APIError.badRequest("PHONE_NUMBER_FLOOD") }
        }
        let code: String
        if Self.isTestNumber(phone) {
            code = String(repeating: String(Array(phone)[5]), count: 5)
        } else if let fixed = codes.fixedCode {
            code = fixed
        } else {
            code = String(format: "%05d", Int(SecureRandom.uint64() % 100_000))
        }
        let hash = SecureRandom.bytes(8).map { String(format: "%02x", $0) }.joined()
        let record = PhoneCodeRecord(phone: phone, codeHash: hash, code: code, expires: now + Int32(codes.lifetime))
        try store.write { [self] tx in
            try tx.insert(record)
            try countAttempt(.codeRequestsPerKey, String(authKeyId), tx: tx)
            if limitsNumber { try countAttempt(.codeRequestsPerPhone, phone, tx: tx) }
        }
        deliver(code: code, to: phone)
        return .sentCode(
            .init(type: .sentCodeTypeSms(.init(length: Int32(code.count))), phoneCodeHash: hash, timeout: nil))
    }

    /// Logs the code and writes it to `<codes folder>/<phone>` so people and scripts on this machine can read it.
    private func deliver(code: String, to phone: String) {
        logger.notice("login code", metadata: ["phone": "+\(phone)", "code": "\(code)"])
        guard let folder = codes.folder else { return }
        do {
            try SecretFile.createDirectory(folder.path)
            try SecretFile.write(Array(code.utf8) + [0x0a], to: folder.appendingPathComponent(phone).path)
        } catch {
            logger.error("could not write the login code file", metadata: ["error": "\(error)"])
        }
    }

    /// Checks `phone`'s code; a wrong code counts, and the fifth wrong one expires it. Wrong codes also count for
    /// the number across every code sent to it (`AttemptLimit.wrongCodesPerPhone`): past them each try waits
    /// (`FLOOD_WAIT_X`), so asking for fresh codes gives no fresh guesses; the right code forgets them.
    ///
    /// The check and the counting happen in one write transaction, so guesses sent at once are counted one after
    /// another and none slips past a limit another one reached.
    private func checkCode(phone: String, hash: String, code: String?) throws -> PhoneCodeRecord {
        guard let code, !code.isEmpty else { throw APIError.badRequest("PHONE_CODE_EMPTY") }
        let limit = AttemptLimit.wrongCodesPerPhone
        let time = Int64(now)
        let outcome = try store.write { [self] tx throws -> Result<PhoneCodeRecord, APIError> in
            if let wait = limit.wait(try tx.attempts(key: limit.key(phone)), now: time) {
                return .failure(.floodWait(Int(wait)))
            }
            guard let record = try tx.phoneCode(phone: phone), record.codeHash == hash else {
                return .failure(.badRequest("PHONE_CODE_EXPIRED"))
            }
            guard record.expires > Int32(clamping: time), record.attempts < 5 else {
                try tx.deletePhoneCode(phone: phone)
                return .failure(.badRequest("PHONE_CODE_EXPIRED"))
            }
            guard ConstantTime.equals(Array(record.code.utf8), Array(code.utf8)) else {
                try tx.countCodeAttempt(phone: phone)
                try countAttempt(limit, phone, tx: tx)
                return .failure(.badRequest("PHONE_CODE_INVALID"))
            }
            try tx.forgetAttempts(key: limit.key(phone))
            return .success(record)
        }
        return try outcome.get()
    }

    func signIn(_ call: Api.functions.auth.signIn, authKeyId: Int64, dc: Int32) throws -> Api.auth.Authorization {
        let phone = Self.normalizedPhone(call.phoneNumber)
        let existing = try store.read { tx in try tx.user(phone: phone) }
        if let home = homeDc(phone: phone, asked: dc, existing: existing), home != dc {
            throw APIError.migrate("PHONE", to: home)
        }
        var record = try checkCode(phone: phone, hash: call.phoneCodeHash, code: call.phoneCode)
        guard let user = existing else {
            // The code is right; `auth.signUp` may now create the account (attempts −1 marks the code as checked).
            record.attempts = -1
            try store.write { tx in try tx.insert(record) }
            return .authorizationSignUpRequired(.init())
        }
        if try store.read({ tx in try tx.password(userId: user.id) }) != nil {
            // Two-step verification: the code was right; `auth.checkPassword` must follow.
            _ = try store.write { tx in try tx.deletePhoneCode(phone: phone) }
            pendingPasswords.remember(authKeyId: authKeyId, userId: user.id)
            throw APIError.sessionPasswordNeeded
        }
        return try authorize(user, authKeyId: authKeyId, dc: dc, consuming: phone)
    }

    func signUp(_ call: Api.functions.auth.signUp, authKeyId: Int64, dc: Int32) throws -> Api.auth.Authorization {
        let phone = Self.normalizedPhone(call.phoneNumber)
        let firstName = call.firstName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !firstName.isEmpty else { throw APIError.badRequest("FIRSTNAME_INVALID") }
        try TextLimit.firstName.check(firstName)
        try TextLimit.lastName.check(call.lastName)
        guard let record = try store.read({ tx in try tx.phoneCode(phone: phone) }),
            record.codeHash == call.phoneCodeHash, record.attempts == -1, record.expires > now
        else { throw APIError.badRequest("PHONE_CODE_EXPIRED") }
        let home = homeDc(phone: phone, asked: dc, existing: nil) ?? dc
        guard home == dc else { throw APIError.migrate("PHONE", to: home) }
        let created = now
        let user = try store.write { tx throws -> UserRecord? in
            guard try tx.user(phone: phone) == nil else { return nil }
            let id = 100_000 + (try tx.nextValue(of: "user"))
            let user = UserRecord(
                id: id, accessHash: Int64(bitPattern: SecureRandom.uint64()), phone: phone, firstName: firstName,
                lastName: call.lastName.trimmingCharacters(in: .whitespacesAndNewlines), dc: home, created: created)
            try tx.insert(user)
            return user
        }
        guard let user else { throw APIError.badRequest("PHONE_NUMBER_OCCUPIED") }
        logger.info("account created", metadata: ["user": "\(user.id)", "dc": "\(home)"])
        return try authorize(user, authKeyId: authKeyId, dc: dc, consuming: phone)
    }

    /// Binds the key to the account and forgets the used code.
    func authorize(
        _ user: UserRecord, authKeyId: Int64, dc: Int32, consuming phone: String?
    ) throws -> Api.auth.Authorization {
        let authorization = AuthorizationRecord(authKeyId: authKeyId, userId: user.id, dc: dc, created: now)
        try store.write { tx in
            try tx.insert(authorization)
            if let phone { try tx.deletePhoneCode(phone: phone) }
        }
        signedInKeys.remember(SignedInKeys.Account(userId: user.id, homeDc: user.dc), authKeyId: authKeyId)
        return .authorization(.init(user: try store.read { tx in try apiUser(user, viewer: user.id, tx: tx) }))
    }

    func logOut(_ caller: Caller) throws -> Api.auth.LoggedOut {
        _ = try store.write { tx in
            try tx.unregisterDevices(authKeyId: caller.authKeyId)
            return try tx.deleteAuthorization(authKeyId: caller.authKeyId)
        }
        signedInKeys.forget(authKeyId: caller.authKeyId)
        return .loggedOut(.init())
    }

    func resetAuthorizations(_ caller: Caller) throws -> [UInt8] {
        let keys = try store.write { tx in
            let keys = try tx.deleteAuthorizations(userId: caller.userId, keeping: caller.authKeyId)
            for key in keys { try tx.unregisterDevices(authKeyId: key) }
            return keys
        }
        for key in keys { signedInKeys.forget(authKeyId: key) }
        return Reply.bool(true)
    }

    func authorizations(_ caller: Caller) throws -> Api.account.Authorizations {
        let records = try store.read { tx in try tx.authorizations(userId: caller.userId) }
        return .authorizations(
            .init(
                authorizationTtlDays: 180,
                authorizations: records.map { record in
                    .authorization(
                        .init(
                            current: record.authKeyId == caller.authKeyId,
                            hash: record.authKeyId == caller.authKeyId ? 0 : record.authKeyId,
                            deviceModel: record.device, platform: record.platform, systemVersion: "", apiId: 0,
                            appName: record.app,
                            appVersion: "", dateCreated: record.created, dateActive: record.created, ip: "127.0.0.1",
                            country: "",
                            region: ""))
                }))
    }

    /// `auth.exportAuthorization`: a one-time token to sign the same account in on another DC.
    func exportAuthorization(
        _ call: Api.functions.auth.exportAuthorization, caller: Caller
    ) throws -> Api.auth.ExportedAuthorization {
        guard dataCenters.contains(where: { $0.id == call.dcId }) else { throw APIError.badRequest("DC_ID_INVALID") }
        let id = Int64(bitPattern: SecureRandom.uint64())
        let bytes = SecureRandom.bytes(32)
        exportedAuthorizations.keep(id: id, userId: caller.userId, bytes: bytes, dc: call.dcId)
        return .exportedAuthorization(.init(id: id, bytes: bytes))
    }

    /// `auth.importAuthorization`. A key already signed in to another account is refused (`AUTH_BYTES_INVALID`)
    /// instead of being turned into this one's; the token is then not used up. A key already signed in to the same
    /// account is answered as if it were not: Pyrogram-family clients import again on the key of their media session,
    /// which shares the DC's key that was imported first (pyrogram/client.py `get_session`), and Telegram serves it.
    func importAuthorization(
        _ call: Api.functions.auth.importAuthorization, authKeyId: Int64, dc: Int32
    ) throws -> Api.auth.Authorization {
        let current = try account(authKeyId: authKeyId)
        guard let token = exportedAuthorizations.take(id: call.id, keySignedInTo: current?.userId), token.dc == dc,
            ConstantTime.equals(token.bytes, call.bytes)
        else {
            throw APIError.badRequest("AUTH_BYTES_INVALID")
        }
        guard let user = try store.read({ tx in try tx.user(id: token.userId) }) else { throw APIError.userIdInvalid }
        return try authorize(user, authKeyId: authKeyId, dc: dc, consuming: nil)
    }
}

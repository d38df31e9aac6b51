/// A registered account.
public struct UserRecord: Sendable, Equatable {
    public var id: Int64
    public var accessHash: Int64
    public var phone: String
    public var firstName: String
    public var lastName: String
    public var username: String?
    public var about: String
    /// The data center the account belongs to (its number's DC).
    public var dc: Int32
    public var created: Int32
    /// The serialized profile photo, if one was set.
    public var photo: [UInt8]?

    public init(
        id: Int64, accessHash: Int64, phone: String, firstName: String, lastName: String, username: String? = nil,
        about: String = "", dc: Int32, created: Int32, photo: [UInt8]? = nil
    ) {
        self.id = id
        self.accessHash = accessHash
        self.phone = phone
        self.firstName = firstName
        self.lastName = lastName
        self.username = username
        self.about = about
        self.dc = dc
        self.created = created
        self.photo = photo
    }
}

/// An auth key signed in to an account.
public struct AuthorizationRecord: Sendable, Equatable {
    public var authKeyId: Int64
    public var userId: Int64
    /// The DC whose key this is.
    public var dc: Int32
    public var created: Int32
    public var device: String
    public var platform: String
    public var app: String

    public init(
        authKeyId: Int64, userId: Int64, dc: Int32, created: Int32, device: String = "", platform: String = "",
        app: String = ""
    ) {
        self.authKeyId = authKeyId
        self.userId = userId
        self.dc = dc
        self.created = created
        self.device = device
        self.platform = platform
        self.app = app
    }
}

/// A login code sent to a phone number.
public struct PhoneCodeRecord: Sendable, Equatable {
    public var phone: String
    public var codeHash: String
    public var code: String
    public var expires: Int32
    public var attempts: Int

    public init(phone: String, codeHash: String, code: String, expires: Int32, attempts: Int = 0) {
        self.phone = phone
        self.codeHash = codeHash
        self.code = code
        self.expires = expires
        self.attempts = attempts
    }
}

/// An account's two-step verification password as the server keeps it: the SRP algorithm's salts and group, and
/// the verifier `v = g^x mod p` the client computed (core.telegram.org "Two-factor authentication"); never the
/// password itself.
public struct PasswordRecord: Sendable, Equatable {
    public var userId: Int64
    public var salt1: [UInt8]
    public var salt2: [UInt8]
    public var g: Int32
    public var p: [UInt8]
    public var verifier: [UInt8]
    public var hint: String

    public init(userId: Int64, salt1: [UInt8], salt2: [UInt8], g: Int32, p: [UInt8], verifier: [UInt8], hint: String) {
        self.userId = userId
        self.salt1 = salt1
        self.salt2 = salt2
        self.g = g
        self.p = p
        self.verifier = verifier
        self.hint = hint
    }
}

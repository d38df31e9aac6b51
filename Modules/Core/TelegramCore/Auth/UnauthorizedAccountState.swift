public import PostboxCoding

/// Where a sign-in stands, kept as the unauthorized account's Postbox state so it survives a restart (Telegram-iOS
/// `UnauthorizedAccountStateContents`).
public enum UnauthorizedAccountStateContents: Equatable, Sendable, Codable {
    case empty
    case phoneEntry
    /// A code was sent to `phone`; `codeHash` goes back with it.
    case confirmationCodeEntry(phone: String, codeHash: String, codeLength: Int32)
    /// The code was right and two-step verification is on.
    case passwordEntry(phone: String, hint: String)
    /// The code was right and the number has no account: `auth.signUp` with a name.
    case signUp(phone: String, codeHash: String)
}

/// The Postbox state of an account that is signing in.
public struct UnauthorizedAccountState: PostboxCoding, Equatable, Sendable {
    public var contents: UnauthorizedAccountStateContents

    public init(contents: UnauthorizedAccountStateContents) {
        self.contents = contents
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        do {
            guard let contents = try decoder.decode(UnauthorizedAccountStateContents.self, forKey: "c") else {
                throw PostboxDecodingError.missingField("c")
            }
            self.contents = contents
        } catch let error as PostboxDecodingError {
            throw error
        } catch {
            throw .typeMismatch(key: "c", expected: "a sign-in state")
        }
    }

    public func encode(_ encoder: PostboxEncoder) {
        try? encoder.encode(contents, forKey: "c")
    }
}

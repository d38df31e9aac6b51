public import TelegramCore

/// The account's own profile as commands change it.
public enum ProfileCommands {
    /// Takes `name` as the account's username (`@name`, found by others through `contacts.resolveUsername`), or
    /// removes it with ""; returns the username the server stored (`nil` once removed).
    public static func setUsername(_ account: Account, _ name: String) async throws(ClientError) -> String? {
        let bare = name.hasPrefix("@") ? String(name.dropFirst()) : name
        do {
            return try await account.updateAddressName(bare)
        } catch {
            switch error {
            case .invalidFormat(let format):
                throw .badInput(
                    "'\(bare)' cannot be a username: \(describe(format)) — use 5–32 letters, digits and underscores, a letter first"
                )
            case .server("USERNAME_OCCUPIED"):
                throw .refused("@\(bare) is taken — choose another")
            case .server(let message):
                throw .refused("the server refused @\(bare): \(message)")
            case .network:
                throw .unreachable("the server did not answer account.updateUsername — check that it is running")
            case .storage(let text):
                throw .storage("storing the new username: \(text)")
            }
        }
    }

    /// Makes a prepared JPEG the account's profile photo.
    public static func setPhoto(_ account: Account, jpeg: [UInt8]) async throws(ClientError) {
        do {
            try await account.setProfilePhoto(jpeg: jpeg)
        } catch {
            throw ChannelCommands.clientError(error, "setting your profile photo")
        }
    }

    static func describe(_ error: AddressNameFormatError) -> String {
        switch error {
        case .startsWithUnderscore: return "it starts with an underscore"
        case .endsWithUnderscore: return "it ends with an underscore"
        case .startsWithDigit: return "it starts with a digit"
        case .tooShort: return "it is shorter than 5 characters"
        case .tooLong: return "it is longer than 32 characters"
        case .invalidCharacters: return "it has characters other than letters, digits and underscores"
        }
    }
}

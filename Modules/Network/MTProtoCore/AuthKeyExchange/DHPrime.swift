import CryptoUtils

/// The 2048-bit safe prime and generator Telegram's servers send in `server_DH_inner_data`; the local server uses
/// the same group (clients check it is a safe prime either way). One copy, in CryptoUtils: two-step verification
/// uses the same group.
public enum DHGroup {
    public static let generator: Int32 = DiffieHellman.telegramGenerator

    public static let prime: [UInt8] = DiffieHellman.telegramPrime
}

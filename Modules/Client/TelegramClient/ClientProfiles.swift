import Foundation
public import MTProtoTransport
import SecretFiles

/// One account as the client knows it: the local name it is picked by (`--account NAME`), its record in the account
/// manager, and the server it signed in to (address and RSA public key), so later commands need only the root.
public struct ClientAccount: Codable, Equatable, Sendable {
    public var name: String
    /// The account manager's record id (`<root>/account-<id>`).
    public var id: Int64
    public var server: ServerAddress
    /// The server's RSA public key, PEM (public: it is what clients embed).
    public var publicKeyPEM: String
    /// The SOCKS5 proxy or MTProxy this account reaches its server through (`tg proxy add`); nil: directly. Its password is in
    /// this owner-only file, as the account's keys are beside it.
    public var proxy: ConnectionProxy?

    public init(name: String, id: Int64, server: ServerAddress, publicKeyPEM: String, proxy: ConnectionProxy? = nil) {
        self.name = name
        self.id = id
        self.server = server
        self.publicKeyPEM = publicKeyPEM
        self.proxy = proxy
    }
}

/// The client's own file beside the account manager's, `<root>/tg-client.json` (owner-only): each account's name
/// and server. The current account is the account manager's.
public struct ClientProfiles: Codable, Equatable, Sendable {
    public var accounts: [ClientAccount] = []

    public init(accounts: [ClientAccount] = []) {
        self.accounts = accounts
    }

    /// The file under `root`.
    public static func path(root: String) -> String { root + "/tg-client.json" }

    /// The profiles stored under `root`; none when the file does not exist yet.
    public static func load(root: String) throws(ClientError) -> ClientProfiles {
        let path = path(root: root)
        guard FileManager.default.fileExists(atPath: path) else { return ClientProfiles() }
        do {
            return try JSONDecoder().decode(
                ClientProfiles.self, from: Data(try SecretFile.read(path, maximumSize: 1 << 20)))
        } catch {
            throw .storage("\(path): unreadable client profiles (\(error)) — move it away and log in again")
        }
    }

    /// Writes the profiles under `root` (0600, replaced atomically).
    public func save(root: String) throws(ClientError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            try SecretFile.write(Array(try encoder.encode(self)), to: Self.path(root: root))
        } catch {
            throw .storage("\(Self.path(root: root)): \(error) — check the folder's permissions and free space")
        }
    }

    /// The account named `name`.
    public func account(named name: String) -> ClientAccount? { accounts.first { $0.name == name } }

    /// The account with record id `id`.
    public func account(id: Int64) -> ClientAccount? { accounts.first { $0.id == id } }

    /// Adds or replaces the account with `account`'s name.
    public mutating func upsert(_ account: ClientAccount) {
        if let index = accounts.firstIndex(where: { $0.name == account.name }) {
            accounts[index] = account
        } else {
            accounts.append(account)
        }
    }

    /// Removes the account with record id `id`.
    public mutating func remove(id: Int64) { accounts.removeAll { $0.id == id } }

    /// Whether `name` can name an account: 1–32 of letters, digits, `-`, `_`, `.`.
    public static func isValidName(_ name: String) -> Bool {
        (1...32).contains(name.count)
            && name.unicodeScalars.allSatisfy {
                ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
                    || "-_.".unicodeScalars.contains($0)
            }
    }
}

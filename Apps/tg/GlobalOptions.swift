import ArgumentParser
import CommandLineOutput
import Foundation
import MTProtoTransport
import TelegramClient
import TelegramCore

/// The options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(
        help: "The folder with the accounts (default: $TG_ROOT, $XDG_DATA_HOME/telegraph or ~/.local/share/telegraph).")
    var root: String?

    @Option(help: "The account to use, by the name given at login (default: the current account).")
    var account: String?

    @Option(help: "Seconds to wait for the server before giving up (exit 4).")
    var timeout: Double = 30

    @Option(
        help: """
            A proxy for this command: socks5://[USER:PASSWORD@]HOST:PORT, a tg://socks link or an MTProxy's \
            tg://proxy link (default: the account's, set with 'tg proxy add').
            """)
    var proxy: String?

    /// `--proxy`, read.
    func proxyOverride() throws -> ConnectionProxy? {
        guard let proxy else { return nil }
        do { return try ProxyLink.parse(proxy) } catch { throw ToolError.badInput(error.description) }
    }

    func rootPath() throws -> String {
        if let root { return root }
        guard let path = ClientRoot.defaultPath(environment: ProcessInfo.processInfo.environment) else {
            throw ToolError.badInput("no --root and no $HOME to find the default", remedy: "pass --root DIR")
        }
        return path
    }

    /// Runs `body` with the session of the chosen account, then closes it; client errors become tg's statuses.
    func withSession<T>(_ body: (ClientSession) async throws -> T) async throws -> T {
        let root = try rootPath()
        let session: ClientSession
        let proxy = try proxyOverride()
        do { session = try ClientSession(root: root, accountName: account, proxy: proxy) } catch {
            throw TGExit.toolError(error)
        }
        do {
            let result = try await body(session)
            await session.close()
            return result
        } catch let error as ClientError {
            await session.close()
            throw TGExit.toolError(error)
        } catch {
            await session.close()
            throw error
        }
    }

    /// Runs `body` with the chosen account started and caught up with the server.
    func withOnlineAccount<T>(_ body: (ClientSession, Account) async throws -> T) async throws -> T {
        try await withSession { session in
            let account = try await session.onlineAccount(named: self.account, timeout: timeout)
            return try await body(session, account)
        }
    }
}

/// `--json`.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON (one object or array, stable keys) instead of text.")
    var json = false
}

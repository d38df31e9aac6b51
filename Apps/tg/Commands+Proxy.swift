import ArgumentParser
import CommandLineOutput
import Foundation
import MTProtoTransport
import TelegramClient

/// `tg proxy add | list | remove`: the SOCKS5 proxy or MTProxy an account reaches its server through, kept in its
/// profile.
struct Proxy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set, show or remove the proxy (SOCKS5 or MTProxy) an account reaches its server through.",
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send the account's connections through a SOCKS5 proxy or an MTProxy from now on.",
            discussion: """
                LINK is socks5://[USER:PASSWORD@]HOST:PORT, tg://socks?server=HOST&port=PORT[&user=U&pass=P], an \
                MTProxy's tg://proxy?server=HOST&port=PORT&secret=SECRET (plain, dd or ee fake-TLS secrets, hex or \
                base64), or the same on https://t.me/socks and https://t.me/proxy. The proxy is tried at once (a \
                tunnel to the account's main DC; through an MTProxy, a key exchange with the server): an account is \
                not left behind a proxy that does not reach its server (--no-check skips that).
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The proxy link.") var link: String
        @Flag(help: "Store the proxy without trying it.") var noCheck = false

        func run() async throws {
            let proxy: ConnectionProxy
            do { proxy = try ProxyLink.parse(link) } catch { throw ToolError.badInput(error.description) }
            let root = try global.rootPath()
            let session: ClientSession
            do { session = try ClientSession(root: root, accountName: global.account, proxy: proxy) } catch {
                throw TGExit.toolError(error)
            }
            do {
                let profile = try session.profile(named: global.account)
                if !noCheck { try await session.checkProxy(proxy, forAccount: profile.name, timeout: global.timeout) }
                try session.updateProfiles { profiles in
                    if let index = profiles.accounts.firstIndex(where: { $0.name == profile.name }) {
                        profiles.accounts[index].proxy = proxy
                    }
                }
                await session.close()
                print("'\(profile.name)' now reaches \(profile.server) through \(proxy).")
            } catch {
                await session.close()
                throw TGExit.toolError(error)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show each account's proxy (passwords are not shown).")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions

        struct Row: Encodable {
            var account: String
            var proxy: String?
        }

        func run() async throws {
            let root = try global.rootPath()
            let profiles: ClientProfiles
            do { profiles = try ClientProfiles.load(root: root) } catch { throw TGExit.toolError(error) }
            let rows = profiles.accounts.map { Row(account: $0.name, proxy: $0.proxy?.description) }
            if output.json {
                try Output.json(rows)
            } else if rows.isEmpty {
                print("No accounts.")
            } else {
                for row in rows { print("\(row.account)\t\(row.proxy ?? "direct")") }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Connect the account to its server directly again.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let root = try global.rootPath()
            do {
                let session = try ClientSession(root: root, accountName: global.account)
                let name = try session.profile(named: global.account).name
                try session.updateProfiles { profiles in
                    if let index = profiles.accounts.firstIndex(where: { $0.name == name }) {
                        profiles.accounts[index].proxy = nil
                    }
                }
                await session.close()
                print("'\(name)' connects directly.")
            } catch {
                throw TGExit.toolError(error)
            }
        }
    }
}

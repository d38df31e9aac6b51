import Foundation
import MTProtoTransport
import ServerTestSupport
import TelegramClient
import TestVectors
import Testing

/// Proxy links read as Telegram's clients write them, and `tg` through a SOCKS5 proxy (Debian's microsocks, with a
/// password) to tg-server: signed in through `--proxy`, the account keeps the proxy (shown without its password) and
/// needs it — with the proxy stopped it cannot reach the server, after `tg proxy remove` it goes direct — and
/// `tg proxy add` refuses a proxy that does not let it through, leaving the profile as it was.
@Suite struct ProxyCommandTests {
    @Test func proxyLinksInEveryForm() throws {
        let plain = try ProxyLink.parse("socks5://127.0.0.1:1080")
        #expect(plain == SOCKS5Proxy(host: "127.0.0.1", port: 1080))
        let login = SOCKS5Proxy.Credentials(username: "ann", password: "p@ss word")
        #expect(try ProxyLink.parse("socks5://ann:p%40ss%20word@proxy.example:1080")
            == SOCKS5Proxy(host: "proxy.example", port: 1080, credentials: login))
        #expect(try ProxyLink.parse("tg://socks?server=proxy.example&port=1080&user=ann&pass=p%40ss%20word")
            == SOCKS5Proxy(host: "proxy.example", port: 1080, credentials: login))
        #expect(try ProxyLink.parse("https://t.me/socks?server=10.0.0.1&port=9050")
            == SOCKS5Proxy(host: "10.0.0.1", port: 9050))
        #expect(SOCKS5Proxy(host: "h", port: 1, credentials: login).description == "socks5://ann@h:1")
        let refused = [
            "socks5://host", "tg://socks?server=h", "tg://socks?port=1080", "socks5://ann@h:1080",
            "https://example.org/socks?server=h&port=1", "ftp://h:1", "not a link", "tg://socks?server=h&port=70000",
        ]
        for text in refused {
            #expect(throws: ProxyLink.ParseError.self, "\(text)") { try ProxyLink.parse(text) }
        }
        let mtproxy = try #require(
            thrownError { try ProxyLink.parse("tg://proxy?server=h&port=443&secret=dd00") } as? ProxyLink.ParseError)
        #expect(mtproxy.description.contains("MTProxy"))
        // A password never reaches an error message.
        let bad = try #require(thrownError { try ProxyLink.parse("socks5://ann:hunter2@h") } as? ProxyLink.ParseError)
        #expect(!bad.description.contains("hunter2") && bad.description.contains("***"))
    }

    @Test func tgThroughASOCKS5Proxy() async throws {
        let socks = try await SOCKS5TestProxy(username: "ann", password: "s3cret")
        defer { socks.stop() }
        try await CommandLineHarness.with { harness in
            let link = "socks5://ann:s3cret@127.0.0.1:\(socks.port)"
            let login = try await harness.tg([
                "--account", "ann", "--proxy", link, "login", "--phone", "9996621501", "--code", "22222",
                "--first-name", "Ann", "--server", harness.serverArgument, "--server-key", harness.keyFile,
            ])
            #expect(login.status == 0, "\(login.errorOutput)")
            struct Row: Decodable {
                let account: String
                let proxy: String?
            }
            #expect(
                try await harness.tgJSON([Row].self, ["proxy", "list"]).map(\.proxy)
                    == ["socks5://ann@127.0.0.1:\(socks.port)"])
            let profile = try String(contentsOfFile: harness.root + "/tg-client.json", encoding: .utf8)
            #expect(profile.contains("s3cret"), "the account keeps its proxy's password in its owner-only profile")
            #expect(try await harness.tg(["chats"]).status == 0)

            // A wrong password is refused when added, and the profile keeps the working proxy.
            let wrong = try await harness.tg([
                "--timeout", "5", "proxy", "add", "socks5://ann:guess@127.0.0.1:\(socks.port)",
            ])
            #expect(wrong.status != 0)
            #expect(wrong.errorOutput.contains("refused the username or password"), "\(wrong.errorOutput)")
            #expect(try String(contentsOfFile: harness.root + "/tg-client.json", encoding: .utf8) == profile)

            // The account needs its proxy: stopped, the server is out of reach; removed, tg goes direct.
            socks.stop()
            let cut = try await harness.tg(["--timeout", "3", "chats"])
            #expect(cut.status == 4, "exit \(cut.status): \(cut.errorOutput)")
            #expect(try await harness.tg(["proxy", "remove"]).status == 0)
            #expect(try await harness.tgJSON([Row].self, ["proxy", "list"]).map(\.proxy) == [nil])
            #expect(try await harness.tg(["chats"]).status == 0)
        }
    }
}

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
        #expect(plain == .socks5(SOCKS5Proxy(host: "127.0.0.1", port: 1080)))
        let login = SOCKS5Proxy.Credentials(username: "ann", password: "p@ss word")
        #expect(
            try ProxyLink.parse("socks5://ann:p%40ss%20word@proxy.example:1080")
                == .socks5(SOCKS5Proxy(host: "proxy.example", port: 1080, credentials: login)))
        #expect(
            try ProxyLink.parse("tg://socks?server=proxy.example&port=1080&user=ann&pass=p%40ss%20word")
                == .socks5(SOCKS5Proxy(host: "proxy.example", port: 1080, credentials: login)))
        #expect(
            try ProxyLink.parse("https://t.me/socks?server=10.0.0.1&port=9050")
                == .socks5(SOCKS5Proxy(host: "10.0.0.1", port: 9050)))
        #expect(SOCKS5Proxy(host: "h", port: 1, credentials: login).description == "socks5://ann@h:1")
        let refused = [
            "socks5://host", "tg://socks?server=h", "tg://socks?port=1080", "socks5://ann@h:1080",
            "https://example.org/socks?server=h&port=1", "ftp://h:1", "not a link", "tg://socks?server=h&port=70000",
        ]
        for text in refused {
            #expect(throws: ProxyLink.ParseError.self, "\(text)") { try ProxyLink.parse(text) }
        }
        // MTProxy links: the secret in hex or base64 (URL-safe or not), plain, dd and ee with its domain.
        let key: [UInt8] = Array(0..<16)
        let hexKey = key.map { String(format: "%02x", $0) }.joined()
        #expect(
            try ProxyLink.parse("tg://proxy?server=h&port=443&secret=\(hexKey)")
                == .mtproxy(MTProxy(host: "h", port: 443, secret: try MTProxySecret(kind: .plain, key: key))))
        #expect(
            try ProxyLink.parse("https://t.me/proxy?server=h&port=443&secret=dd\(hexKey)")
                == .mtproxy(MTProxy(host: "h", port: 443, secret: try MTProxySecret(kind: .padded, key: key))))
        let fakeTLS = try MTProxySecret(kind: .fakeTLS, key: key, domain: "example.com")
        let base64 = Data(fakeTLS.bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        #expect(
            try ProxyLink.parse("tg://proxy?server=h&port=443&secret=\(base64)")
                == .mtproxy(MTProxy(host: "h", port: 443, secret: fakeTLS)))
        #expect(
            try ProxyLink.parse("tg://proxy?server=h&port=443&secret=\(fakeTLS.hexEncoded)")
                == .mtproxy(
                    MTProxy(host: "h", port: 443, secret: fakeTLS)))
        #expect(fakeTLS.hexEncoded == "ee" + hexKey + "6578616d706c652e636f6d")
        #expect(!MTProxy(host: "h", port: 1, secret: fakeTLS).description.contains(hexKey))
        for secret in ["dd00", "ee" + hexKey, "00" + hexKey, "zz", ""] {
            let error = thrownError { try ProxyLink.parse("tg://proxy?server=h&port=443&secret=\(secret)") }
            #expect(error is ProxyLink.ParseError, "\(secret)")
        }
        // A proxy stored in the profile file keeps its kind; a SOCKS5 one is stored as it always was.
        for proxy: ConnectionProxy in [
            .mtproxy(MTProxy(host: "h", port: 443, secret: fakeTLS)),
            .socks5(SOCKS5Proxy(host: "h", port: 1, credentials: login)),
        ] {
            #expect(try JSONDecoder().decode(ConnectionProxy.self, from: JSONEncoder().encode(proxy)) == proxy)
        }
        let stored = #"{"host":"h","port":1080,"credentials":{"username":"ann","password":"p@ss word"}}"#
        #expect(
            try JSONDecoder().decode(ConnectionProxy.self, from: Data(stored.utf8))
                == .socks5(SOCKS5Proxy(host: "h", port: 1080, credentials: login)))
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

    @Test func tgThroughAnMTProxyWithAFakeTLSSecret() async throws {
        try await CommandLineHarness.with { harness in
            let key: [UInt8] = (0..<16).map { UInt8(200 - $0) }
            let peer = try await MTProxyTestPeer(keys: [key], dcPorts: harness.ports)
            defer { peer.stop() }
            let secret = try MTProxySecret(kind: .fakeTLS, key: key, domain: "cdn.example.org")
            let link = "tg://proxy?server=127.0.0.1&port=\(peer.port)&secret=\(secret.hexEncoded)"
            let login = try await harness.tg([
                "--account", "mia", "--proxy", link, "login", "--phone", "9996621511", "--code", "22222",
                "--first-name", "Mia", "--server", harness.serverArgument, "--server-key", harness.keyFile,
            ])
            #expect(login.status == 0, "\(login.errorOutput)")
            struct Row: Decodable {
                let account: String
                let proxy: String?
            }
            #expect(
                try await harness.tgJSON([Row].self, ["proxy", "list"]).map(\.proxy)
                    == ["mtproxy://127.0.0.1:\(peer.port) (ee (cdn.example.org))"])
            #expect(try await harness.tg(["chats"]).status == 0)
            // Another secret is refused when added (the proxy never answers it), and the profile is left as it was.
            let profile = try String(contentsOfFile: harness.root + "/tg-client.json", encoding: .utf8)
            let wrong = try MTProxySecret(kind: .padded, key: Array(key.reversed()))
            let refused = try await harness.tg([
                "--timeout", "3", "proxy", "add",
                "tg://proxy?server=127.0.0.1&port=\(peer.port)&secret=\(wrong.hexEncoded)",
            ])
            #expect(refused.status != 0)
            #expect(!refused.errorOutput.contains(wrong.hexEncoded), "a secret never reaches an error message")
            #expect(try String(contentsOfFile: harness.root + "/tg-client.json", encoding: .utf8) == profile)
            // The account needs its proxy: stopped, the server is out of reach.
            peer.stop()
            let cut = try await harness.tg(["--timeout", "3", "chats"])
            #expect(cut.status == 4, "exit \(cut.status): \(cut.errorOutput)")
        }
    }
}

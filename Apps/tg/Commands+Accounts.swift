import ArgumentParser
import CommandLineOutput
import Foundation
import TelegramClient
import TelegramCore

#if canImport(Glibc)
    import Glibc
#endif

struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Sign in (or sign up) an account: phone, then the code, then the password if two-step verification is on.",
        discussion: """
            A new account needs the server: --server HOST:PORT (DC 1's port, DC n on PORT+n-1) or \
            HOST:1=P,2=P,3=P, and --server-key FILE (its RSA public key: 'tg-server --print-public-key'); \
            $TG_SERVER and $TG_SERVER_KEY stand in for them. The account is named --account (default 'default') \
            and becomes current.

            What is not given as a flag is asked for when standard input is a terminal; otherwise login stops at that \
            step (exit 0, 'needs' in --json) and the next 'tg login --account NAME --code …' goes on from there. \
            tg-server's test numbers 99966XYYYY have the code X five times.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "The phone number, digits only (e.g. 9996620001).") var phone: String?
    @Option(help: "The login code.") var code: String?
    @Option(help: "The two-step verification password.") var password: String?
    @Option(help: "First name, for a number that has no account yet (sign-up).") var firstName: String?
    @Option(help: "Last name, for sign-up.") var lastName: String = ""
    @Option(help: "The server, HOST:PORT or HOST:1=P,2=P,3=P (default $TG_SERVER).") var server: String?
    @Option(help: "The server's RSA public key, a PEM file (default $TG_SERVER_KEY).") var serverKey: String?

    struct Result: Encodable {
        var account: String
        var status: String
        var userId: Int64?
        var needs: String?
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let root = try global.rootPath()
        let name = global.account ?? "default"
        guard ClientProfiles.isValidName(name) else {
            throw ToolError.badInput(
                "'\(name)' cannot name an account", remedy: "use 1-32 letters, digits, '-', '_' or '.'")
        }
        let existing = (try? ClientProfiles.load(root: root))?.account(named: name)
        let address: ServerAddress
        let pem: String
        if let text = server ?? environment["TG_SERVER"] {
            do { address = try ServerAddress(parsing: text) } catch { throw ToolError.badInput(error.description) }
        } else if let existing {
            address = existing.server
        } else {
            throw ToolError.badInput(
                "no server for the new account '\(name)'", remedy: "pass --server HOST:PORT and --server-key FILE")
        }
        if let file = serverKey ?? environment["TG_SERVER_KEY"] {
            pem = try ToolError.reading(file, remedy: "write it with 'tg-server --print-public-key'") {
                try String(contentsOfFile: file, encoding: .utf8)
            }
        } else if let existing {
            pem = existing.publicKeyPEM
        } else {
            throw ToolError.badInput("no server key for the new account '\(name)'", remedy: "pass --server-key FILE")
        }
        let interactive = isatty(0) != 0
        let answers = SignInAnswers(
            phone: { [phone] in
                phone.map { $0.filter(\.isNumber) } ?? (interactive ? Prompt.line("Phone number: ") : nil)
            },
            code: { [code] phone in code ?? (interactive ? Prompt.line("Code sent to +\(phone): ") : nil) },
            password: { [password] hint in
                password ?? (interactive ? Prompt.secret("Password\(hint.isEmpty ? "" : " (hint: \(hint))"): ") : nil)
            },
            name: { [firstName, lastName] in
                if let firstName { return (firstName, lastName) }
                guard interactive, let first = Prompt.line("New account — first name: ") else { return nil }
                return (first, Prompt.line("Last name (optional): ") ?? "")
            })
        let session: ClientSession
        // Through --proxy, or the proxy the account already uses.
        let proxy = try global.proxyOverride() ?? existing?.proxy
        do { session = try ClientSession(root: root, server: address, publicKeyPEM: pem, proxy: proxy) } catch {
            throw TGExit.toolError(error)
        }
        let outcome: SignInOutcome
        do {
            outcome = try await SignInFlow.run(
                session: session, name: name, server: address, publicKeyPEM: pem, answers: answers,
                timeout: global.timeout)
        } catch {
            await session.close()
            throw TGExit.toolError(error)
        }
        await session.close()
        switch outcome {
        case .signedIn(let userId):
            if output.json {
                try Output.json(Result(account: name, status: "signedIn", userId: userId))
            } else {
                print("Signed in as user:\(userId); '\(name)' is the current account.")
            }
        case .waiting(let needs):
            if output.json {
                try Output.json(Result(account: name, status: "waiting", needs: needs))
            } else {
                print(
                    "'\(name)' waits for the \(needs): run 'tg login --account \(name) --\(needs == "name" ? "first-name" : needs) …'."
                )
            }
        }
    }
}

/// Reading answers from the terminal.
enum Prompt {
    static func line(_ question: String) -> String? {
        ToolOutput.standardError(question, terminator: "")
        guard let answer = readLine()?.trimmingCharacters(in: .whitespaces), !answer.isEmpty else { return nil }
        return answer
    }

    static func secret(_ question: String) -> String? {
        guard let raw = getpass(question) else { return nil }
        let answer = String(cString: raw)
        return answer.isEmpty ? nil : answer
    }
}

struct Accounts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the accounts under the root: name, user, server, and which is current (*).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    struct Row: Encodable {
        var name: String
        var id: Int64
        var userId: Int64?
        var loggedIn: Bool
        var current: Bool
        var server: String
    }

    func run() async throws {
        let rows: [Row] = try await global.withSession { session in
            let records = session.manager.records
            let current = session.manager.currentAccountId?.rawValue
            return session.profiles.accounts.map { profile in
                let record = records.first { $0.id.rawValue == profile.id }
                var userId: Int64?
                if case .authorized(let user)? = record?.kind { userId = user }
                return Row(
                    name: profile.name, id: profile.id, userId: userId, loggedIn: userId != nil,
                    current: profile.id == current,
                    server: profile.server.description)
            }
        }
        if output.json { return try Output.json(rows) }
        if rows.isEmpty { print("No accounts; run 'tg login'.") }
        for row in rows {
            let state = row.userId.map { "user:\($0)" } ?? "signing in"
            print("\(row.current ? "*" : " ") \(row.name)  \(state)  \(row.server)")
        }
    }
}

struct Switch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Make an account the current one.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The account's name (see 'tg accounts').") var name: String

    func run() async throws {
        try await global.withSession { session in
            let profile = try session.profile(named: name)
            do throws(AccountManager.Failure) {
                try session.manager.switchTo(AccountRecordId(rawValue: profile.id))
            } catch {
                throw ClientError.storage(error.description)
            }
        }
        if output.json { try Output.json(["current": name]) } else { print("'\(name)' is the current account.") }
    }
}

struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Log an account out: the server is told, and its folder, key and name are removed.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let name = try await global.withSession { session in try await session.logOut(named: global.account) }
        if output.json { try Output.json(["loggedOut": name]) } else { print("Logged '\(name)' out.") }
    }
}

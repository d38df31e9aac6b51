// notification-bench: one run of the notification service — a process that starts, reads one push file, finds the
// account by the key id, decrypts, stores the message in a Postbox of 100,000 messages, prints the preview and
// exits — measured as iOS would charge an extension: its peak RSS (`/usr/bin/time`'s %M, the child's ru_maxrss) and
// the wall time from spawn to exit (including starting /usr/bin/time, about a millisecond). Variants: linked as
// shipped (Swift runtime static, no PIE: nothing to relocate at start), static with PIE, and SwiftPM's default (the
// runtime as shared libraries), each with its floor (`--help`), and the shipped binary with the app's 16 MiB page
// cache instead of the service's 512 KiB; the peer is `postbox-tool add-message`, the same one-message write through
// Foundation, ArgumentParser and the default cache, without the push's decryption.
import BenchmarkSupport
import CryptoUtils
import Foundation
import Glibc
import MTProtoCore
import Postbox
import PushNotifications
import SyncCore

checkCommandLine(
    """
    usage: notification-bench

    One run of the notification service per measurement (a push file decrypted into a Postbox of 100,000 messages):
    peak RSS and spawn-to-exit time of each linked variant and its --help floor, against postbox-tool add-message.
    Run through `make bench BENCH=notification-bench` (it builds the variants and sets their paths).
    Every round runs each variant once (interleaved); the table gives the median of all rounds with min–max, and
    the message every run stored is read back and compared.
    Environment: NOTIFICATION_BENCH_RUNS or BENCH_ROUNDS (default 15 rounds), BENCH_CHECK=1 (one round, a 10,000-message
    account), NOTIFICATION_BENCH_KEEP=1 keeps the scratch folder.
    """)

// Under `make bench-check` (one round, outputs compared) a smaller account is enough.
let messageCount = BenchmarkMethod.isCheck ? 10_000 : 100_000
let chatCount = 100
let rounds = BenchmarkMethod.rounds(Int(ProcessInfo.processInfo.environment["NOTIFICATION_BENCH_RUNS"] ?? "") ?? 15)

/// The machine's load average (1, 5, 15 minutes).
func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(
        separator: " ") ?? "?"
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("notification-bench: error: \(message)\n".utf8))
    exit(1)
}

/// Runs `path` with `arguments` under `/usr/bin/time -f %M` and returns (exit status, peak RSS in KiB, wall seconds
/// from spawn to reaped). The peak RSS is time's report of its child: a child spawned from this process directly
/// would carry this process's peak into its ru_maxrss (Linux records the old address space's high-water mark at
/// exec, and a posix_spawn child's old address space is ours), so a small parent must fork it.
@MainActor func spawnMeasured(_ path: String, _ arguments: [String]) -> (status: Int32, rssKiB: Int, seconds: Double) {
    let report = root + "/time-report"
    let argv = (["/usr/bin/time", "-f", "%M", "-o", report, path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    let start = now()
    guard posix_spawn(&pid, "/usr/bin/time", &actions, nil, argv, environ) == 0 else {
        fail("cannot start /usr/bin/time (apt package time; make deps installs it)")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let seconds = now() - start
    let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
    // time writes "Command exited with non-zero status N" before the figure when the child failed.
    let rss = text.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.last ?? 0
    return (code, rss, seconds)
}

// MARK: - The installation: one account with 100,000 messages in 100 chats and its notification key.

let root = FileManager.default.temporaryDirectory.appendingPathComponent("notification-bench-\(getpid())").path
// NOTIFICATION_BENCH_KEEP=1 leaves the prepared installation for profiling one run by hand.
defer {
    if ProcessInfo.processInfo.environment["NOTIFICATION_BENCH_KEEP"] != "1" {
        try? FileManager.default.removeItem(atPath: root)
    }
}
printMachine()
let layout = AccountsLayout(rootPath: root)
let accountId: Int64 = 1
let key = NotificationKey.generate()
registerSyncCoreTypes()
do {
    try FileManager.default.createDirectory(atPath: layout.postboxKeysPath, withIntermediateDirectories: true)
    let keyFile = PostboxKeyFile(path: layout.postboxKeyPath(accountId))
    try keyFile.create(try PostboxEncryptionParameters(keyAndSalt: SecureRandom.bytes(48)))
    let postbox = try Postbox.open(
        accountPath: layout.accountPath(accountId), keyFile: keyFile, globalMessageIds: Namespaces.globalMessageIds)
    let started = now()
    let perChat = messageCount / chatCount
    try postbox.transactionSync { tx in
        try tx.updatePeers(
            (1...chatCount).map {
                TelegramUser(
                    id: .user(Int64(1000 + $0)), accessHash: nil, firstName: "user \($0)", lastName: nil, username: nil,
                    phone: nil)
            })
    }
    for chat in 1...chatCount {
        let peer = PeerId.user(Int64(1000 + chat))
        try postbox.transactionSync { tx in
            _ = try tx.addMessages(
                (1...perChat).map { id in
                    StoreMessage(
                        id: .id(MessageId(peerId: peer, namespace: Namespaces.Message.cloud, id: Int32(id))),
                        timestamp: Int32(1_700_000_000 + id * 60 + chat), flags: id % 3 == 0 ? [] : [.incoming],
                        authorId: peer,
                        text:
                            "message \(id) in chat \(chat): Tối nay ăn phở không? \(String(repeating: "x", count: id % 80))"
                    )
                })
        }
    }
    try NotificationKeyStore(layout: layout).save(key, accountId: accountId)
    print(String(format: "prepared %d messages in %d chats in %.1f s", messageCount, chatCount, now() - started))
} catch {
    fail("preparing the account: \(error)")
}

var nextId: Int32 = Int32(messageCount / chatCount) + 1
/// The text of message `id`: the push's and the peer's alike.
func messageText(_ id: Int32) -> String { "Tối nay ăn phở không? \(id)" }

/// A push file for message `id` in chat 1 (an existing chat, as most pushes are).
@MainActor func pushFile(_ id: Int32) -> String {
    let json = """
        {"custom":{"date":"\(1_800_000_000 + Int(id))","from_id":"1001","msg_id":"\(id)"},"loc_args":["alice","\(messageText(id))"],"loc_key":"MESSAGE_TEXT"}
        """
    let sealed = PushPayloadCrypto.encrypt(Array(json.utf8), key: key)
    let p = Data(sealed).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
        of: "/", with: "_"
    )
    .replacingOccurrences(of: "=", with: "")
    let path = root + "/push-\(id).json"
    FileManager.default.createFile(atPath: path, contents: Data("{\"p\":\"\(p)\"}".utf8))
    return path
}

/// One row of the table: a binary and its arguments, run once per round.
struct Variant {
    let name: String
    let goal: String
    /// The arguments of one run; a run that stores a message is given that message's id.
    let command: @MainActor (_ id: Int32) -> (path: String, arguments: [String])
    /// Whether a run stores the message `id` (the floors only print their help).
    let stores: Bool
}

/// What one variant measured: every run's peak RSS and wall time, and the ids of the messages it stored.
struct Row {
    var rss: [Int] = []
    var seconds: [Double] = []
    var stored: [Int32] = []
}

let environment = ProcessInfo.processInfo.environment
let services: [(name: String, variable: String)] = [
    (
        "notification-service, release as `make notification-service-release` links it (static runtime, no PIE)",
        "NOTIFICATION_SERVICE_BIN_static_no_pie"
    ),
    ("… with the Swift runtime static, PIE", "NOTIFICATION_SERVICE_BIN_static"),
    ("… with the Swift runtime dynamic (SwiftPM's default)", "NOTIFICATION_SERVICE_BIN_dynamic"),
]
guard let shipped = environment[services[0].variable] else { fail("set \(services[0].variable) (make bench does)") }
/// A service run for the next message in chat 1 (the push file is written before the run, untimed).
@MainActor func service(
    _ binary: String, extra: [String] = []
) -> @MainActor (Int32) -> (path: String, arguments: [String]) {
    { id in (binary, ["--root", root] + extra + [pushFile(id)]) }
}
var variants: [Variant] = []
for (index, entry) in services.enumerated() {
    guard let binary = environment[entry.variable] else { continue }
    variants.append(
        Variant(
            name: entry.name, goal: index == 0 ? "RSS ≤ 16 MB, wall ≤ 50 ms" : "", command: service(binary),
            stores: true))
    variants.append(
        Variant(
            name: "… its floor: `--help` (runtime and libraries loaded, no Postbox)", goal: "",
            command: { _ in (binary, ["--help"]) }, stores: false))
}
variants.append(
    Variant(
        name: "shipped binary with the app's 16 MiB page cache (`--cache-kib 16384`)", goal: "",
        command: service(shipped, extra: ["--cache-kib", "16384"]), stores: true))
if let tool = environment["POSTBOX_TOOL_BIN"] {
    // The same message as the push's: chat and author 1001, incoming, the push's text and date.
    variants.append(
        Variant(
            name: "peer: postbox-tool add-message (Foundation, ArgumentParser, 16 MiB cache, no decryption)", goal: "",
            command: { id in
                (
                    tool,
                    [
                        "add-message", "--path", layout.accountPath(accountId), "--key-file",
                        layout.postboxKeyPath(accountId), "--peer", "1001", "--id", "\(id)", "--text", messageText(id),
                        "--incoming", "--timestamp", "\(1_800_000_000 + Int(id))",
                    ]
                )
            }, stores: true))
}

// Interleaved rounds (BENCHMARKS.md, "Method"): every round runs each variant once, starting one variant later each
// round, so that all of them share the machine's load alike; round 0 warms the page cache and is not kept.
var rows = [Row](repeating: Row(), count: variants.count)
for round in 0...rounds {
    for step in 0..<variants.count {
        let index = (round + step) % variants.count
        let variant = variants[index]
        let id = nextId
        if variant.stores { nextId += 1 }
        let command = variant.command(id)
        let result = spawnMeasured(command.path, command.arguments)
        guard result.status == 0 else { fail("\(variant.name) exited \(result.status)") }
        if variant.stores { rows[index].stored.append(id) }
        if round == 0 { continue }
        rows[index].rss.append(result.rssKiB)
        rows[index].seconds.append(result.seconds)
    }
}

// Same work, checked: every run that stores a message must have stored the same one (its id aside) — chat, text,
// date, flags and author read back from the Postbox. The service also marks its message with
// NotificationMessageAttribute (so the app knows it came from a push); the peer, a general tool, does not, so
// attributes are not compared.
let stored: String
do {
    let postbox = try Postbox.open(
        accountPath: layout.accountPath(accountId), keyFile: PostboxKeyFile(path: layout.postboxKeyPath(accountId)),
        globalMessageIds: Namespaces.globalMessageIds)
    var forms: [(variant: String, form: String)] = []
    try postbox.transactionSync { tx in
        for (index, variant) in variants.enumerated() {
            for id in rows[index].stored {
                let messageId = MessageId(peerId: .user(1001), namespace: Namespaces.Message.cloud, id: id)
                forms.append((variant.name, storedForm(try tx.getMessage(messageId), id: id)))
            }
        }
    }
    guard let first = forms.first else { fail("no run stored a message") }
    if let other = forms.first(where: { $0.form != first.form }) {
        BenchmarkMethod.differentWork(
            "the stored message", ours: "\(first.variant): \(first.form)", peer: "\(other.variant): \(other.form)")
    }
    stored = "\(forms.count) messages stored, all alike: \(first.form)"
} catch {
    fail("reading the stored messages back: \(error)")
}

/// A stored message with its id taken out (each run stores the next id): what every run must have written alike.
func storedForm(_ message: Message?, id: Int32) -> String {
    guard let message else { return "nothing stored" }
    let text = message.text.replacingOccurrences(of: "\(id)", with: "#")
    return "chat \(message.id.peerId), namespace \(message.id.namespace), \"\(text)\", date 1800000000+id"
        + "\(Int(message.timestamp) - 1_800_000_000 - Int(id) == 0 ? "" : " (off by \(Int(message.timestamp) - 1_800_000_000 - Int(id)))")"
        + ", flags \(message.flags.rawValue), author \(message.authorId.map { "\($0)" } ?? "none")"
}

/// "median (min–max)" of `values` scaled by `scale`, with `unit`.
func spread(_ values: [Double], scale: Double, unit: String) -> String {
    let sorted = values.sorted()
    return String(
        format: "%.1f %@ (%.1f–%.1f)", median(sorted) * scale, unit, sorted[0] * scale, sorted[sorted.count - 1] * scale
    )
}

print(
    "load average at the end: \(loadAverage()); \(rounds) interleaved round\(rounds == 1 ? "" : "s") after one warm-up "
        + "round; an account of \(messageCount) messages in \(chatCount) chats")
print(stored)
print(
    "\n### One notification-service run (process start → stored and printed → exit) — median of \(rounds) "
        + "interleaved rounds (min–max)\n")
print("| variant | peak RSS | wall, spawn to exit | goal |")
print("|---|---:|---:|---|")
for (variant, row) in zip(variants, rows) {
    let rss = spread(row.rss.map(Double.init), scale: 1 / 1024, unit: "MB")
    print("| \(variant.name) | \(rss) | \(spread(row.seconds, scale: 1000, unit: "ms")) | \(variant.goal) |")
}

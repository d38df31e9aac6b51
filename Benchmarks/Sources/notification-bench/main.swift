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
    Environment: NOTIFICATION_BENCH_RUNS (default 15), NOTIFICATION_BENCH_KEEP=1 keeps the scratch folder.
    """)

let messageCount = 100_000
let chatCount = 100
let runs = Int(ProcessInfo.processInfo.environment["NOTIFICATION_BENCH_RUNS"] ?? "") ?? 15

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
/// A push file for the next message in chat 1 (an existing chat, as most pushes are).
@MainActor func pushFile() -> String {
    defer { nextId += 1 }
    let json = """
        {"custom":{"date":"\(1_800_000_000 + Int(nextId))","from_id":"1001","msg_id":"\(nextId)"},"loc_args":["alice","Tối nay ăn phở không? \(nextId)"],"loc_key":"MESSAGE_TEXT"}
        """
    let sealed = PushPayloadCrypto.encrypt(Array(json.utf8), key: key)
    let p = Data(sealed).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
        of: "/", with: "_"
    )
    .replacingOccurrences(of: "=", with: "")
    let path = root + "/push-\(nextId).json"
    FileManager.default.createFile(atPath: path, contents: Data("{\"p\":\"\(p)\"}".utf8))
    return path
}

struct Row {
    let name: String
    var rss: [Int] = []
    var seconds: [Double] = []
    let goal: String
}

func median<T: Comparable>(_ values: [T]) -> T { values.sorted()[values.count / 2] }
func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p + 0.5))]
}

@MainActor func measureService(_ name: String, binary: String, extra: [String] = [], goal: String = "") -> Row {
    var row = Row(name: name, goal: goal)
    _ = spawnMeasured(binary, ["--root", root] + extra + [pushFile()])  // warm the page cache
    for _ in 0..<runs {
        let result = spawnMeasured(binary, ["--root", root] + extra + [pushFile()])
        guard result.status == 0 else { fail("\(name) exited \(result.status)") }
        row.rss.append(result.rssKiB)
        row.seconds.append(result.seconds)
    }
    return row
}

let environment = ProcessInfo.processInfo.environment
let variants: [(name: String, variable: String)] = [
    (
        "notification-service, release as `make notification-service-release` links it (static runtime, no PIE)",
        "NOTIFICATION_SERVICE_BIN_static_no_pie"
    ),
    ("… with the Swift runtime static, PIE", "NOTIFICATION_SERVICE_BIN_static"),
    ("… with the Swift runtime dynamic (SwiftPM's default)", "NOTIFICATION_SERVICE_BIN_dynamic"),
]
var rows: [Row] = []
guard let shipped = environment[variants[0].variable] else { fail("set \(variants[0].variable) (make bench does)") }
for (index, variant) in variants.enumerated() {
    guard let binary = environment[variant.variable] else { continue }
    rows.append(measureService(variant.name, binary: binary, goal: index == 0 ? "RSS ≤ 16 MB, wall ≤ 50 ms" : ""))
    var floor = Row(name: "… its floor: `--help` (runtime and libraries loaded, no Postbox)", goal: "")
    for _ in 0..<runs {
        let result = spawnMeasured(binary, ["--help"])
        floor.rss.append(result.rssKiB)
        floor.seconds.append(result.seconds)
    }
    rows.append(floor)
}
rows.append(
    measureService(
        "shipped binary with the app's 16 MiB page cache (`--cache-kib 16384`)", binary: shipped,
        extra: ["--cache-kib", "16384"]))
if let tool = environment["POSTBOX_TOOL_BIN"] {
    var row = Row(
        name: "peer: postbox-tool add-message (Foundation, ArgumentParser, 16 MiB cache, no decryption)", goal: "")
    let arguments = { (id: Int32) in
        [
            "add-message", "--path", layout.accountPath(accountId), "--key-file", layout.postboxKeyPath(accountId),
            "--peer", "1001",
            "--id", "\(id)", "--text", "Tối nay ăn phở không?", "--incoming", "--timestamp",
            "\(1_800_000_000 + Int(id))",
        ]
    }
    _ = spawnMeasured(tool, arguments(nextId))
    nextId += 1
    for _ in 0..<runs {
        let result = spawnMeasured(tool, arguments(nextId))
        nextId += 1
        guard result.status == 0 else { fail("postbox-tool exited \(result.status)") }
        row.rss.append(result.rssKiB)
        row.seconds.append(result.seconds)
    }
    rows.append(row)
}

printMachine()
let load =
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(
        separator: " ") ?? "?"
print(
    "load average at the end: \(load); \(runs) runs each after one warm-up; an account of \(messageCount) messages in \(chatCount) chats"
)
print("\n### One notification-service run (process start → stored and printed → exit)\n")
print("| variant | peak RSS median (max) | wall p50 (p90) | goal |")
print("|---|---:|---:|---|")
for row in rows {
    print(
        String(
            format: "| %@ | %.1f MB (%.1f MB) | %.1f ms (%.1f ms) | %@ |", row.name, Double(median(row.rss)) / 1024,
            Double(row.rss.max() ?? 0) / 1024, median(row.seconds) * 1000, percentile(row.seconds, 0.9) * 1000, row.goal
        ))
}

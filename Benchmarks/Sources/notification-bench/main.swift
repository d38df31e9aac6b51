// notification-bench: one run of the notification service — a process that starts, reads one push file, finds the
// account by the key id, decrypts, stores the message in a Postbox of 100,000 messages, prints the preview and
// exits — measured as iOS would charge an extension: its peak RSS (wait4's ru_maxrss) and the wall time from spawn
// to exit. Variants: the release binary as built (Swift runtime linked dynamically), the same linked with
// `--static-swift-stdlib`, and with the app's 16 MiB page cache instead of the service's 512 KiB; the peer is
// `postbox-tool add-message`, the same one-message write through Foundation, ArgumentParser and the default cache,
// without the push's decryption.
import BenchmarkSupport
import CryptoUtils
import Foundation
import Glibc
import MTProtoCore
import Postbox
import PushNotifications
import SyncCore

let messageCount = 100_000
let chatCount = 100
let runs = Int(ProcessInfo.processInfo.environment["NOTIFICATION_BENCH_RUNS"] ?? "") ?? 15

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("notification-bench: error: \(message)\n".utf8))
    exit(1)
}

/// Spawns `path` with `arguments` and returns (exit status, peak RSS in KiB, wall seconds from spawn to reaped).
func spawnMeasured(_ path: String, _ arguments: [String]) -> (status: Int32, rssKiB: Int, seconds: Double) {
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    let start = now()
    guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { fail("cannot start \(path)") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let seconds = now() - start
    let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return (code, usage.ru_maxrss, seconds)
}

// MARK: - The installation: one account with 100,000 messages in 100 chats and its notification key.

let root = FileManager.default.temporaryDirectory.appendingPathComponent("notification-bench-\(getpid())").path
defer { try? FileManager.default.removeItem(atPath: root) }
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
        try tx.updatePeers((1...chatCount).map {
            TelegramUser(id: .user(Int64(1000 + $0)), accessHash: nil, firstName: "user \($0)", lastName: nil, username: nil, phone: nil)
        })
    }
    for chat in 1...chatCount {
        let peer = PeerId.user(Int64(1000 + chat))
        try postbox.transactionSync { tx in
            _ = try tx.addMessages((1...perChat).map { id in
                StoreMessage(
                    id: .id(MessageId(peerId: peer, namespace: Namespaces.Message.cloud, id: Int32(id))),
                    timestamp: Int32(1_700_000_000 + id * 60 + chat), flags: id % 3 == 0 ? [] : [.incoming], authorId: peer,
                    text: "message \(id) in chat \(chat): Tối nay ăn phở không? \(String(repeating: "x", count: id % 80))")
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
func pushFile() -> String {
    defer { nextId += 1 }
    let json = """
        {"custom":{"date":"\(1_800_000_000 + Int(nextId))","from_id":"1001","msg_id":"\(nextId)"},"loc_args":["alice","Tối nay ăn phở không? \(nextId)"],"loc_key":"MESSAGE_TEXT"}
        """
    let sealed = PushPayloadCrypto.encrypt(Array(json.utf8), key: key)
    let p = Data(sealed).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
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

func measureService(_ name: String, binary: String, extra: [String] = [], goal: String = "") -> Row {
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
guard let service = environment["NOTIFICATION_SERVICE_BIN"] else { fail("set NOTIFICATION_SERVICE_BIN (make bench does)") }
var rows: [Row] = []
rows.append(measureService("notification-service (release)", binary: service, goal: "RSS ≤ 16 MB, wall ≤ 50 ms"))
if let staticService = environment["NOTIFICATION_SERVICE_STATIC_BIN"] {
    rows.append(measureService("… linked with --static-swift-stdlib", binary: staticService))
}
rows.append(measureService("… with the app's 16 MiB page cache", binary: service, extra: ["--cache-kib", "16384"]))
if let tool = environment["POSTBOX_TOOL_BIN"] {
    var row = Row(name: "peer: postbox-tool add-message (Foundation, ArgumentParser, 16 MiB cache, no decryption)", goal: "")
    let arguments = { (id: Int32) in
        ["add-message", "--path", layout.accountPath(accountId), "--key-file", layout.postboxKeyPath(accountId), "--peer", "1001",
         "--id", "\(id)", "--text", "Tối nay ăn phở không?", "--incoming", "--timestamp", "\(1_800_000_000 + Int(id))"]
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
let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
print("load average at the end: \(load); \(runs) runs each after one warm-up; an account of \(messageCount) messages in \(chatCount) chats")
print("\n### One notification-service run (process start → stored and printed → exit)\n")
print("| variant | peak RSS median (max) | wall p50 (p90) | goal |")
print("|---|---:|---:|---|")
for row in rows {
    print(String(
        format: "| %@ | %.1f MB (%.1f MB) | %.1f ms (%.1f ms) | %@ |", row.name, Double(median(row.rss)) / 1024,
        Double(row.rss.max() ?? 0) / 1024, median(row.seconds) * 1000, percentile(row.seconds, 0.9) * 1000, row.goal))
}

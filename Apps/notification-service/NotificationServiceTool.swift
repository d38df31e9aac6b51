import Dispatch
import Glibc
import PushNotifications

/// `notification-service`: what Telegram's NotificationService extension does with one push, as a one-shot process —
/// read the push file (or standard input), find the account by the key id, decrypt and check it, store the message
/// in that account's Postbox, print the preview line, exit. Foundation and ArgumentParser stay out of it (the
/// extension lives in 24 MB), so its few options are read here.
@main
enum NotificationServiceTool {
    static let name = "notification-service"

    static let help = """
        USAGE: notification-service --root <dir> [<push-file>]

        Stores the message of one push in its account's Postbox and prints the preview line ("alice: text");
        prints nothing for a muted chat (the account muted it, or the server sent a background push without loc_key).

        ARGUMENTS:
          <push-file>        The push as delivered, {"p": "<base64url>"} (tg-server --push-dir writes them);
                             standard input when omitted or "-".

        OPTIONS:
          --root <dir>       The app's data root (holds accounts-metadata/ and account-<id>/).
          --cache-kib <n>    SQLCipher's page cache for the one transaction (default 512).
          --trace            Also print, on standard error, "write-started <ns> stored <ns>": the monotonic clock
                             (DispatchTime's) before the write transaction began and after it committed
                             (and the other processes were told).
          -h, --help         Show this help.

        EXIT CODES:
          0  stored (or already stored) and printed, or a muted chat's push: nothing printed
          1  failure: the account's key or Postbox could not be read or written
          2  usage or bad input: not a push file, truncated, unknown key id (or the account logged out), tampered
             (msg_key mismatch), or a payload this service does not understand — nothing on disk is changed
        """

    static func main() {
        var root: String?
        var file: String?
        var cacheKiB = 512
        var trace = false
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            switch argument {
            case "-h", "--help":
                print(help)
                exit(0)
            case "--root":
                root = arguments.popFirst()
            case "--cache-kib":
                guard let value = arguments.popFirst().flatMap(Int.init), value >= 16 else {
                    fail(2, "--cache-kib needs a number of KiB, at least 16 — e.g. --cache-kib 512")
                }
                cacheKiB = value
            case "--trace":
                trace = true
            default:
                guard file == nil, !argument.hasPrefix("--") else {
                    fail(2, "unexpected argument '\(argument)' — see --help")
                }
                file = argument
            }
        }
        guard let root else { fail(2, "no data root — give --root <dir> (the folder holding accounts-metadata)") }
        let bytes = readInput(file)
        let service = NotificationService(rootPath: root, cacheSizeKiB: cacheKiB)
        do {
            let opened = try service.open(bytes)
            let stored = try service.store(opened)
            if trace {
                writeError("write-started \(stored.writeStarted) stored \(stored.committed)\n")
            }
            // A muted chat's push (a background one without loc_key, or the chat muted in the account's Postbox)
            // shows nothing, as Telegram-iOS's NotificationService does; its message is stored all the same.
            if stored.shown { print(stored.preview) }
        } catch {
            fail(error.exitCode, error.reason)
        }
    }

    /// The push file's bytes (at most `NotificationService.maximumFileSize` + 1, so an oversized file is named).
    static func readInput(_ path: String?) -> [UInt8] {
        let descriptor: Int32
        if let path, path != "-" {
            descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                fail(2, "cannot open \(path): \(String(cString: strerror(errno))) — give the push file's path")
            }
        } else {
            descriptor = 0
        }
        defer { if descriptor != 0 { close(descriptor) } }
        let limit = NotificationService.maximumFileSize + 1
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let read = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, limit - count) }
            if read < 0 && errno == EINTR { continue }
            guard read >= 0 else { fail(2, "cannot read the push: \(String(cString: strerror(errno)))") }
            if read == 0 { break }
            count += read
        }
        return Array(bytes[0..<count])
    }

    /// Prints `notification-service: error: <reason>` and exits with `code`.
    static func fail(_ code: Int32, _ reason: String) -> Never {
        writeError("\(name): error: \(reason)\n")
        exit(code)
    }

    /// Writes `text` to standard error (descriptor 2, unbuffered).
    static func writeError(_ text: String) {
        var bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
    }
}

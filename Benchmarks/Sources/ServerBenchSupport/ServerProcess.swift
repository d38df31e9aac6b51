public import CryptoUtils
public import Foundation
import MTProtoServer

/// A release tg-server started for one measurement, on free ports, with its own data folder.
public final class ServerProcess {
    public let process = Process()
    public let directory: URL
    /// DC 2's port.
    public let port: Int
    /// Every DC's port, by DC id (what the server printed: `dc1=… dc2=…`).
    public let ports: [Int32: Int]
    public let publicKey: RSAPublicKey

    public init(arguments: [String]) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let binary =
            ProcessInfo.processInfo.environment["TG_SERVER_BIN"]
            ?? root.appendingPathComponent(".build/release/tg-server").path
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tg-server-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--port", "0", "--data-dir", directory.path] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let field = text.split(separator: " ").first(where: { $0.hasPrefix("dc2=") }),
            let port = Int(field.dropFirst(4).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "tg-server did not start: \(text)"])
        }
        self.port = port
        var ports: [Int32: Int] = [:]
        for field in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) where field.hasPrefix("dc") {
            let parts = field.dropFirst(2).split(separator: "=")
            if parts.count == 2, let dc = Int32(parts[0]), let value = Int(parts[1]) { ports[dc] = value }
        }
        self.ports = ports
        // The server's own key file: the same user may read it (0600).
        publicKey = try ServerKeyStore(directory: directory).rsaKey.publicKey
        // Keep draining its output so it never blocks on a full pipe.
        pipe.fileHandleForReading.readabilityHandler = { handle in _ = handle.availableData }
    }

    /// Writes the server's public key as PKCS#1 PEM to `path` (what Telethon's scripts take as `--pem-file`).
    public func writePublicKeyPEM(to path: String) throws {
        try ServerKeyStore(directory: directory).rsaKey.publicKeyPEM().write(
            toFile: path, atomically: true, encoding: .utf8)
    }

    /// Resident set size in bytes (/proc/<pid>/status, VmRSS).
    public func rss() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kib = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kib * 1024
    }

    /// CPU time the server has used, user and system, in seconds (/proc/<pid>/stat).
    public func cpuSeconds() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        // Fields after the command name: state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    public func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }
}

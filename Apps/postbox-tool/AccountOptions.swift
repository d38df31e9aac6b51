import ArgumentParser
import Foundation
import Postbox
import PostboxTesting

/// The options every command takes: where the account is and how to get its key.
struct AccountOptions: ParsableArguments {
    @Option(name: .long, help: "The account directory (holds postbox/db/db_sqlite).")
    var path: String

    @Option(
        name: .long,
        help: """
            A file with the key: 48 raw bytes or 96 hex digits (default: $POSTBOX_KEY). Read without following \
            links; `rekey` replaces it with the new key, and an interrupted rekey is finished or rolled back \
            (from F.pending) the next time the tool opens the account with it.
            """)
    var keyFile: String?

    /// The key material from --key-file or POSTBOX_KEY.
    func encryption() throws -> PostboxEncryptionParameters {
        if let keyFile { return try PostboxKeyFile(path: keyFile).read() }
        if let hex = ProcessInfo.processInfo.environment["POSTBOX_KEY"] {
            return try PostboxEncryptionParameters(hex: hex)
        }
        throw ToolFailure.usage("no key: give --key-file F or set POSTBOX_KEY (96 hex digits)")
    }

    /// Opens the Postbox; a missing database is an error unless `create`. With --key-file, a rekey that was
    /// interrupted is settled first.
    func open(create: Bool = false) throws -> Postbox {
        registerPostboxTestTypes()
        let key = keyFile == nil ? try encryption() : nil
        if !create && !FileManager.default.fileExists(atPath: path + "/postbox/db/db_sqlite") {
            throw ToolFailure.usage("no Postbox at \(path) (expected \(path)/postbox/db/db_sqlite)")
        }
        let progress: (Float) -> Void = { progress in
            ProgressLine.shared.show("upgrading", fraction: Double(progress))
        }
        do {
            if let keyFile {
                return try Postbox.open(accountPath: path, keyFile: PostboxKeyFile(path: keyFile), progress: progress)
            }
            return try Postbox.open(accountPath: path, encryption: key, progress: progress)
        } catch {
            throw ToolFailure.from(error)
        }
    }
}

/// A failure with the tool's exit status: 2 for a wrong key, an unusable database or bad usage, 1 otherwise.
enum ToolFailure: Error {
    case usage(String)
    case wrongKey(String)
    case failed(String)

    static func from(_ error: Error) -> ToolFailure {
        if let failure = error as? ToolFailure { return failure }
        if let error = error as? PostboxError {
            switch error {
            case .wrongKeyOrNotADatabase, .invalidEncryptionParameters, .keyFile: return .wrongKey(error.description)
            default: return .failed(error.description)
            }
        }
        return .failed("\(error)")
    }
}

/// Runs a command body, turning failures into one line on stderr and the tool's exit status.
func runTool(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        switch ToolFailure.from(error) {
        case .usage(let message), .wrongKey(let message):
            printError(message)
            throw ExitCode(2)
        case .failed(let message):
            printError(message)
            throw ExitCode(1)
        }
    }
}

/// Writes one line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data(("postbox-tool: " + message + "\n").utf8))
}

/// Parses a peer argument: "N" (a user id) or "namespace:id".
func parsePeerId(_ text: String) throws -> PeerId {
    let parts = text.split(separator: ":")
    if parts.count == 2, let namespace = Int32(parts[0]), let id = Int64(parts[1]) {
        return PeerId(namespace: .init(rawValue: namespace), id: .init(rawValue: id))
    }
    if parts.count == 1, let id = Int64(parts[0]) {
        return PeerId(namespace: .init(rawValue: 0), id: .init(rawValue: id))
    }
    throw ToolFailure.usage("not a peer id: \(text) (use N or namespace:N)")
}

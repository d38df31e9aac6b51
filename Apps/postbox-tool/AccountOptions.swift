import ArgumentParser
import CommandLineOutput
import Foundation
import Postbox
import PostboxTesting
import SyncCore

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
        throw ToolError.badInput("no key", remedy: "give --key-file F or set POSTBOX_KEY (96 hex digits)")
    }

    /// Opens the Postbox; a missing database is an error unless `create`. With --key-file, a rekey that was
    /// interrupted is settled first.
    func open(create: Bool = false) throws -> Postbox {
        // The product's types, and the stand-ins Postbox's own tests and benchmarks write, so both can be read.
        registerSyncCoreTypes()
        registerPostboxTestTypes()
        let key = keyFile == nil ? try encryption() : nil
        if !create && !FileManager.default.fileExists(atPath: path + "/postbox/db/db_sqlite") {
            throw ToolError.badInput(
                "no Postbox at \(path)", remedy: "give the account directory, the one holding postbox/db/db_sqlite")
        }
        let upgrade = ProgressLine(tool: PostboxTool.toolName, total: 100)
        let progress: (Float) -> Void = { fraction in
            upgrade.update(done: Int(fraction * 100), current: "upgrading")
            if fraction >= 1 { upgrade.finish() }
        }
        do {
            if let keyFile {
                return try Postbox.open(
                    accountPath: path, keyFile: PostboxKeyFile(path: keyFile),
                    globalMessageIds: Namespaces.globalMessageIds,
                    progress: progress)
            }
            return try Postbox.open(
                accountPath: path, encryption: key, globalMessageIds: Namespaces.globalMessageIds, progress: progress)
        } catch {
            throw toolError(error)
        }
    }
}

/// An error as the tool reports it: a wrong key, an unusable database or key file is bad input (exit 2, with what to
/// do); anything else a failure (exit 1).
func toolError(_ error: any Error) -> ToolError {
    if let error = error as? ToolError { return error }
    if let error = error as? PostboxError {
        switch error {
        case .wrongKeyOrNotADatabase, .invalidEncryptionParameters, .keyFile:
            return .badInput(error.description, remedy: "check --key-file or POSTBOX_KEY")
        default:
            return ToolError(error.description)
        }
    }
    return ToolError("\(error)")
}

/// Runs a command body, reporting any failure as the tool's one-line error and exit status.
func runTool(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        throw toolError(error)
    }
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
    throw ToolError.badInput("not a peer id: \(text)", remedy: "use N or namespace:N")
}

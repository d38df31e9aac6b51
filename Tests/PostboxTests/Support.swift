import Foundation
import Postbox
import PostboxTesting

let testKey = try! PostboxEncryptionParameters(key: Array(0..<32), salt: Array(32..<48))

/// A new account directory with an open Postbox.
func makePostbox(key: PostboxEncryptionParameters? = testKey) throws -> (Postbox, TemporaryDirectory) {
    registerPostboxTestTypes()
    let directory = TemporaryDirectory(prefix: "postbox-tests")
    return (try Postbox.open(accountPath: directory.path + "/account-1", encryption: key), directory)
}

func peer(_ id: Int64, namespace: Int32 = 0) -> PeerId {
    PeerId(namespace: .init(rawValue: namespace), id: .init(rawValue: id))
}

func message(
    _ peerId: PeerId, _ id: Int32, namespace: Int32 = 0, timestamp: Int32? = nil, text: String = "",
    flags: MessageFlags = [], tags: MessageTags = [], media: [Media] = []
) -> StoreMessage {
    StoreMessage(
        id: .id(MessageId(peerId: peerId, namespace: namespace, id: id)), timestamp: timestamp ?? id * 10,
        flags: flags, tags: tags, authorId: peerId, text: text.isEmpty ? "message \(id)" : text, media: media)
}

/// The directory holding the test bundle and the package's executables.
var binDirectory: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
}

/// Runs postbox-tool and returns its exit status, stdout and stderr.
func runTool(_ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String, String) {
    let process = Process()
    process.executableURL = binDirectory.appendingPathComponent("postbox-tool")
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env.removeValue(forKey: "POSTBOX_KEY")
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let error = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
}

var testKeyHex: String { (testKey.key + testKey.salt).map { String(format: "%02x", $0) }.joined() }

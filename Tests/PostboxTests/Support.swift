import Foundation
import Postbox
import PostboxTesting
import TestVectors

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

/// Runs postbox-tool (without any POSTBOX_KEY of the test's own environment) and returns its exit status, stdout
/// and stderr.
func runTool(_ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String, String) {
    var variables: [String: String?] = ["POSTBOX_KEY": nil]
    for (name, value) in environment { variables[name] = value }
    let result = try ProcessRunner.run(ProcessRunner.builtExecutable("postbox-tool"), arguments, environment: variables)
    return (result.status, result.output, result.errorOutput)
}

var testKeyHex: String { (testKey.key + testKey.salt).map { String(format: "%02x", $0) }.joined() }

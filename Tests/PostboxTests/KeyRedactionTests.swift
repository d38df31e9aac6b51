import Foundation
import Postbox
import PostboxTesting
import SQLite
import TestVectors
import Testing

/// Nothing in the Postbox area that holds key material prints it: the encryption parameters, a Postbox open with
/// them (whose mirror reaches its key), key-file errors.
@Suite struct KeyRedactionTests {
    @Test func encryptionParametersPrintNoKeyByte() {
        for value in [rekeyedKey, Optional(rekeyedKey) as Any, [rekeyedKey] as Any] {
            #expect(Redaction.leaks(of: rekeyedKey.key, in: value).isEmpty)
            #expect(Redaction.leaks(of: rekeyedKey.salt, in: value).isEmpty)
        }
        #expect(String(describing: rekeyedKey) == "PostboxEncryptionParameters(redacted)")
        // The check itself finds bytes that are printed.
        #expect(!Redaction.leaks(of: rekeyedKey.key, in: rekeyedKey.key).isEmpty)
    }

    @Test func anOpenPostboxPrintsNoKeyByte() throws {
        let (postbox, directory) = try makePostbox(key: rekeyedKey)
        defer { directory.remove() }
        _ = try postbox.readTransactionSync { tx in try tx.getAllPeers() }
        #expect(Redaction.leaks(of: rekeyedKey.key, in: postbox).isEmpty)
        #expect(Redaction.leaks(of: rekeyedKey.salt, in: postbox).isEmpty)
    }

    @Test func keyFileErrorsNameTheFileNotItsContents() throws {
        let directory = TemporaryDirectory(prefix: "postbox-keyfile")
        defer { directory.remove() }
        let keyFile = PostboxKeyFile(path: directory.path + "/key")
        // 47 bytes of a real key: too short, and the error must not echo them.
        try (rekeyedKey.key + rekeyedKey.salt.prefix(15)).withUnsafeBytes { bytes in
            try Data(bytes).write(to: URL(fileURLWithPath: keyFile.path))
        }
        let error = try #require(throws: PostboxError.self) { try keyFile.read() }
        #expect(error.description.contains(keyFile.path))
        #expect(error.description.contains("47 bytes"))
        #expect(Redaction.leaks(of: rekeyedKey.key, in: error).isEmpty)
    }
}

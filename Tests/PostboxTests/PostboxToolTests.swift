import Foundation
import Glibc
import Postbox
import PostboxTesting
import SecretFiles
import TestVectors
import Testing

@Suite struct PostboxToolTests {
    @Test func importThenSearchFindsPhoAndAWrongKeyExitsWithStatus2() throws {
        let directory = TemporaryDirectory(prefix: "postbox-tool")
        defer { directory.remove() }
        let jsonl = directory.path + "/messages.jsonl"
        try """
        {"peer": 1, "id": 1, "timestamp": 100, "author": 2, "text": "Tôi thích ăn phở bò", "incoming": true}
        {"peer": 1, "id": 2, "timestamp": 101, "author": 3, "text": "hello", "entities": [{"type": "bold", "offset": 0, "length": 5}]}
        {"peer": 7, "id": 1, "timestamp": 102, "author": 7, "text": "ánh sáng", "media": [{"kind": "photo", "name": "a.jpg", "size": 5, "id": 9}], "groupingKey": 4}

        """.write(toFile: jsonl, atomically: true, encoding: .utf8)
        let keyFile = directory.path + "/key"
        try testKeyHex.write(toFile: keyFile, atomically: true, encoding: .utf8)
        let account = directory.path + "/new/account-1"

        let imported = try runTool(["import-jsonl", "--path", account, "--key-file", keyFile, jsonl])
        #expect(imported.0 == 0, "\(imported.2)")
        #expect(imported.1.contains("imported 3 messages"))

        let search = try runTool(["search", "pho", "--path", account], environment: ["POSTBOX_KEY": testKeyHex])
        #expect(search.0 == 0)
        #expect(search.1.contains("phở"))
        let none = try runTool(["search", "pho", "--peer", "7", "--path", account, "--key-file", keyFile])
        #expect(none.1.isEmpty)

        let exported = try runTool(["export-jsonl", "--path", account, "--key-file", keyFile])
        #expect(exported.1.split(separator: "\n").count == 3)
        #expect(exported.1.contains("\"groupingKey\":4"))
        #expect(exported.1.contains("\"kind\":\"photo\""))

        let verify = try runTool(["verify", "--path", account, "--key-file", keyFile])
        #expect(verify.0 == 0)
        #expect(verify.1.hasPrefix("ok"))

        let history = try runTool([
            "history", "1", "--around", "1", "--count", "5", "--json", "--path", account, "--key-file", keyFile,
        ])
        #expect(history.1.split(separator: "\n").count == 2)

        let stats = try runTool(["stats", "--json", "--path", account, "--key-file", keyFile])
        #expect(stats.1.contains("\"messages\" : 3"))
        #expect(stats.1.contains("\"unread\" : 1"))

        let database = account + "/postbox/db/db_sqlite"
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        let wrong = try runTool(
            ["stats", "--path", account], environment: ["POSTBOX_KEY": String(repeating: "ee", count: 48)])
        #expect(wrong.0 == 2)
        #expect(wrong.2 == "postbox-tool: error: wrong key or not a Postbox database: \(database) — check --key-file or POSTBOX_KEY\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)

        let newKeyFile = directory.path + "/new-key"
        try String(repeating: "5a", count: 48).write(toFile: newKeyFile, atomically: true, encoding: .utf8)
        let rekey = try runTool(["rekey", "--path", account, "--key-file", keyFile, "--new-key-file", newKeyFile])
        #expect(rekey.0 == 0, "\(rekey.2)")
        // The key file now holds the new key; the old key no longer opens the database.
        #expect(try String(contentsOfFile: keyFile, encoding: .utf8) == String(repeating: "5a", count: 48) + "\n")
        #expect(try runTool(["stats", "--path", account], environment: ["POSTBOX_KEY": testKeyHex]).0 == 2)
        let rekeyed = try runTool(["search", "anh", "--path", account, "--key-file", keyFile])
        #expect(rekeyed.1.contains("ánh sáng"))
        #expect(try runTool(["search", "anh", "--path", account, "--key-file", newKeyFile]).1.contains("ánh sáng"))
    }

    /// The key files postbox-tool writes are owner-only whatever mode the user gave them, links are refused, and
    /// `rekey` with only $POSTBOX_KEY (no file to commit the new key to) is a usage error that changes nothing.
    @Test func keyFilesAreOwnerOnlyAndLinksAreRefused() throws {
        let directory = TemporaryDirectory(prefix: "postbox-tool-keys")
        defer { directory.remove() }
        let account = directory.path + "/account-1"
        let jsonl = directory.path + "/m.jsonl"
        try #"{"peer": 1, "id": 1, "timestamp": 1, "text": "secret diary"}"#.write(
            toFile: jsonl, atomically: true, encoding: .utf8)
        let keyFile = directory.path + "/key"
        try testKeyHex.write(toFile: keyFile, atomically: true, encoding: .utf8)
        chmod(keyFile, 0o644)
        #expect(try runTool(["import-jsonl", "--path", account, "--key-file", keyFile, jsonl]).0 == 0)

        let newKeyFile = directory.path + "/new-key"
        try SecretFile.create(rekeyedKey.key + rekeyedKey.salt, at: newKeyFile)
        let envOnly = try runTool(
            ["rekey", "--path", account, "--new-key-file", newKeyFile], environment: ["POSTBOX_KEY": testKeyHex])
        #expect(envOnly.0 == 2)
        #expect(envOnly.2.contains("rekey needs --key-file"))
        #expect(keyOpens(testKey, account + "/postbox/db/db_sqlite"))

        let rekey = try runTool(["rekey", "--path", account, "--key-file", keyFile, "--new-key-file", newKeyFile])
        #expect(rekey.0 == 0, "\(rekey.2)")
        #expect(SecretFile.mode(of: keyFile) == 0o600)
        #expect(SecretFile.mode(of: keyFile + ".lock") == 0o600)
        #expect(!FileManager.default.fileExists(atPath: keyFile + ".pending"))
        // The file kept its format: 96 hex digits and a newline.
        #expect(try PostboxKeyFile(path: keyFile).read() == rekeyedKey)
        #expect(try SecretFile.read(keyFile).count == 97)

        let link = directory.path + "/key-link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: keyFile)
        let linked = try runTool(["stats", "--path", account, "--key-file", link])
        #expect(linked.0 == 2)
        #expect(linked.2.contains("symbolic link"), "\(linked.2)")
        // No error or output line shows a key.
        for text in [rekey.1, rekey.2, envOnly.2, linked.2] {
            #expect(!text.contains(testKeyHex.prefix(16)) && !text.contains(hex(rekeyedKey.key).prefix(16)))
        }
    }
}

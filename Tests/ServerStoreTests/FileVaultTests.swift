import Foundation
import ServerStore
import Testing

/// The vault's upload bounds: parts per key in bytes and in uploads, with the oldest forgotten first.
@Suite struct FileVaultTests {
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vault-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func pendingBytesForgetTheLeastRecentlyWrittenUploadsOfThatKey() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let vault = try FileVault(directory: directory, maximumPendingBytes: 10_000)
        let part = [UInt8](repeating: 7, count: 4_000)
        try vault.savePart(key: 1, fileId: 100, part: 0, bytes: part)
        try vault.savePart(key: 1, fileId: 200, part: 0, bytes: part)
        // Another key has its own bound.
        try vault.savePart(key: 2, fileId: 100, part: 0, bytes: part)
        try vault.savePart(key: 2, fileId: 200, part: 0, bytes: part)
        // Writing upload 100 again makes 200 the least recent; a third upload then needs 200's room.
        try vault.savePart(key: 1, fileId: 100, part: 0, bytes: part)
        try vault.savePart(key: 1, fileId: 300, part: 0, bytes: part)
        #expect(throws: FileVault.Failure.missingPart(0)) { try vault.assemble(key: 1, fileId: 200, parts: 1) }
        #expect(try vault.assemble(key: 1, fileId: 100, parts: 1).size == 4_000)
        #expect(try vault.assemble(key: 1, fileId: 300, parts: 1).size == 4_000)
        #expect(try vault.assemble(key: 2, fileId: 100, parts: 1).size == 4_000)
        #expect(try vault.assemble(key: 2, fileId: 200, parts: 1).size == 4_000)
        // Assembled uploads no longer count: three more parts fit again.
        for fileId: Int64 in [400, 500] { try vault.savePart(key: 1, fileId: fileId, part: 0, bytes: part) }
        #expect(try vault.assemble(key: 1, fileId: 400, parts: 1).size == 4_000)
        // One upload larger than the bound on its own is refused.
        try vault.savePart(key: 3, fileId: 1, part: 0, bytes: part)
        try vault.savePart(key: 3, fileId: 1, part: 1, bytes: part)
        #expect(throws: FileVault.Failure.pendingBytesExceeded) { try vault.savePart(key: 3, fileId: 1, part: 2, bytes: part) }
        // Writing a part again counts only the difference (here none), so the smaller last part still fits.
        try vault.savePart(key: 3, fileId: 1, part: 1, bytes: part)
        try vault.savePart(key: 3, fileId: 1, part: 2, bytes: [UInt8](repeating: 1, count: 2_000))
        #expect(try vault.assemble(key: 3, fileId: 1, parts: 3).size == 10_000)
    }
}

import Foundation
import SecretFiles
import Testing

@Suite struct SecretFileTests {
    let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)").path
        try SecretFile.createDirectory(folder + "/keys")
    }

    private func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder + "/keys").filter { $0.contains(".tmp-") }
    }

    @Test func writtenFilesAreOwnerOnlyInOwnerOnlyFolders() throws {
        let path = folder + "/keys/a"
        try SecretFile.write([1, 2, 3], to: path)
        #expect(SecretFile.mode(of: path) == 0o600)
        #expect(SecretFile.mode(of: folder + "/keys") == 0o700)
        #expect(SecretFile.mode(of: folder) == 0o700)
        #expect(try SecretFile.read(path) == [1, 2, 3])
        try SecretFile.write([4], to: path)
        #expect(try SecretFile.read(path) == [4])
        #expect(try leftovers().isEmpty)
    }

    @Test func anExistingFolderIsTightened() throws {
        let path = folder + "/open"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        try SecretFile.createDirectory(path)
        #expect(SecretFile.mode(of: path) == 0o700)
    }

    @Test func aLinkInPlaceOfTheFolderIsRefused() throws {
        let path = folder + "/linked"
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: folder + "/keys")
        #expect(throws: SecretFileError.notADirectory(path)) { try SecretFile.createDirectory(path) }
    }

    @Test func createNeverReplacesAnExistingSecret() throws {
        let path = folder + "/keys/b"
        try SecretFile.create([9, 9], at: path)
        #expect(throws: SecretFileError.exists(path)) { try SecretFile.create([7], at: path) }
        #expect(try SecretFile.read(path) == [9, 9])
        #expect(try leftovers().isEmpty)
    }

    @Test func writingOverALinkReplacesTheLinkNotItsTarget() throws {
        let victim = folder + "/victim"
        try Data("untouched".utf8).write(to: URL(fileURLWithPath: victim))
        let path = folder + "/keys/c"
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: victim)
        try SecretFile.write([5], to: path)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "untouched")
        #expect(try SecretFile.read(path) == [5])
    }

    @Test func readingRefusesLinksHugeFilesAndFolders() throws {
        let target = folder + "/keys/real"
        try SecretFile.write([1], to: target)
        let link = folder + "/keys/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(throws: SecretFileError.symbolicLink(link)) { try SecretFile.read(link) }
        #expect(throws: SecretFileError.tooLarge(target, size: 1, limit: 0)) { try SecretFile.read(target, maximumSize: 0) }
        #expect(throws: SecretFileError.notARegularFile(folder + "/keys")) { try SecretFile.read(folder + "/keys") }
        #expect(throws: SecretFileError.missing(folder + "/keys/none")) { try SecretFile.read(folder + "/keys/none") }
    }

    @Test func errorsNameThePathAndNeverTheBytes() throws {
        let error = SecretFileError.exists("/x/key")
        #expect(error.description.contains("/x/key"))
        #expect(SecretFileError.system(operation: "open", path: "/x", code: EACCES).description.contains("ermission"))
    }
}

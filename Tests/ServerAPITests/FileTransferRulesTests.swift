@testable import ServerAPI
import Testing

/// The part and window rules of core.telegram.org "Uploading and Downloading Files".
@Suite struct FileTransferRulesTests {
    static func error(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as APIError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test func partsMustFitTheirLimits() {
        #expect(Self.error { try FileTransferRules.checkPart(part: 0, totalParts: nil, size: 512 * 1024) } == nil)
        #expect(Self.error { try FileTransferRules.checkPart(part: 0, totalParts: nil, size: 0) } == "FILE_PART_EMPTY")
        #expect(Self.error { try FileTransferRules.checkPart(part: 0, totalParts: nil, size: 512 * 1024 + 1) } == "FILE_PART_TOO_BIG")
        #expect(Self.error { try FileTransferRules.checkPart(part: -1, totalParts: nil, size: 10) } == "FILE_PART_INVALID")
        #expect(Self.error { try FileTransferRules.checkPart(part: 5, totalParts: 5, size: 10) } == "FILE_PART_INVALID")
        #expect(Self.error { try FileTransferRules.checkPart(part: 0, totalParts: 4001, size: 10) } == "FILE_PARTS_INVALID")
        #expect(Self.error { try FileTransferRules.checkPartSize(128 * 1024, parts: 3) } == nil)
        #expect(Self.error { try FileTransferRules.checkPartSize(1000, parts: 3) } == "FILE_PART_SIZE_INVALID")
        #expect(Self.error { try FileTransferRules.checkPartSize(3 * 1024, parts: 3) } == "FILE_PART_SIZE_INVALID")
        #expect(Self.error { try FileTransferRules.checkPartSize(1000, parts: 1) } == nil)
    }

    @Test func downloadWindowsStayInsideOneMegabyte() {
        #expect(Self.error { try FileTransferRules.checkDownload(offset: 0, limit: 1 << 20, precise: false) } == nil)
        #expect(Self.error { try FileTransferRules.checkDownload(offset: 512 * 1024, limit: 512 * 1024, precise: false) } == nil)
        #expect(Self.error { try FileTransferRules.checkDownload(offset: 512 * 1024, limit: 1 << 20, precise: false) } == "LIMIT_INVALID")
        #expect(Self.error { try FileTransferRules.checkDownload(offset: 0, limit: 12 * 1024, precise: false) } == "LIMIT_INVALID")
        #expect(Self.error { try FileTransferRules.checkDownload(offset: 0, limit: 2 << 20, precise: false) } == "LIMIT_INVALID")
        #expect(Self.error { try FileTransferRules.checkDownload(offset: 1024, limit: 4096, precise: false) } == "OFFSET_INVALID")
        // precise: 1 KB units, any limit up to 1 MB, still inside one megabyte.
        #expect(Self.error { try FileTransferRules.checkDownload(offset: 1024, limit: 3 * 1024, precise: true) } == nil)
        #expect(Self.error { try FileTransferRules.checkDownload(offset: (1 << 20) - 1024, limit: 2048, precise: true) } == "LIMIT_INVALID")
    }
}

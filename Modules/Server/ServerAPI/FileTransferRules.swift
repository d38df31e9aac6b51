/// The size rules of core.telegram.org "Uploading and Downloading Files", as checks that answer with Telegram's
/// error names.
enum FileTransferRules {
    /// Parts are at most 512 KB; every part but the last has the same size, a multiple of 1 KB dividing 512 KB.
    static let maximumPartSize = 512 * 1024
    /// Files over 10 MB go with `upload.saveBigFilePart`.
    static let bigFileThreshold: Int64 = 10 * 1024 * 1024
    /// At most 4,000 parts (2,000 MB of 512 KB parts).
    static let maximumParts: Int32 = 4000
    /// `upload.getFile` reads at most 1 MB, never across a 1 MB boundary.
    static let megabyte: Int64 = 1024 * 1024

    /// Checks one uploaded part; `totalParts` is given for big files.
    static func checkPart(part: Int32, totalParts: Int32?, size: Int) throws(APIError) {
        guard size > 0 else { throw .badRequest("FILE_PART_EMPTY") }
        guard size <= maximumPartSize else { throw .badRequest("FILE_PART_TOO_BIG") }
        if let totalParts {
            guard totalParts > 0, totalParts <= maximumParts else { throw .badRequest("FILE_PARTS_INVALID") }
            guard part >= 0, part < totalParts else { throw .badRequest("FILE_PART_INVALID") }
        } else {
            guard part >= 0, part < maximumParts else { throw .badRequest("FILE_PART_INVALID") }
        }
    }

    /// Checks the part size the assembled file was cut into (its first part): a multiple of 1 KB dividing 512 KB,
    /// unless the file is that one part.
    static func checkPartSize(_ size: Int, parts: Int32) throws(APIError) {
        guard parts == 1 || (size % 1024 == 0 && maximumPartSize % size == 0) else {
            throw .badRequest("FILE_PART_SIZE_INVALID")
        }
    }

    /// Checks an `upload.getFile` window: offset and limit multiples of 4 KB (1 KB with `precise`), the limit at most
    /// 1 MB and (without `precise`) dividing it, the window inside one megabyte.
    static func checkDownload(offset: Int64, limit: Int32, precise: Bool) throws(APIError) {
        let unit: Int64 = precise ? 1024 : 4096
        guard limit > 0, Int64(limit) % unit == 0, Int64(limit) <= megabyte, precise || megabyte % Int64(limit) == 0
        else {
            throw .badRequest("LIMIT_INVALID")
        }
        guard offset >= 0, offset % unit == 0 else { throw .badRequest("OFFSET_INVALID") }
        guard offset / megabyte == (offset + Int64(limit) - 1) / megabyte else { throw .badRequest("LIMIT_INVALID") }
    }
}

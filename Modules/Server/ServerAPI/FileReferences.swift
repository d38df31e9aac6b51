import CryptoUtils
import ServerStore

/// File references (core.telegram.org "File references"): the `file_reference` a `Photo` or `Document` carries and a
/// client must send back with its id and access hash to download or re-send it. Ours are a version byte and 16 bytes
/// of SHA-256 over a 32-byte server secret (kept in the database, `server_secrets`) and the object's kind and id:
/// they cannot be derived from the id, and a new secret (a new data folder) makes every old one stale. They do not
/// expire with time. A client sending none gets `FILE_REFERENCE_EMPTY`, one of the wrong shape
/// `FILE_REFERENCE_INVALID`, and one that was never ours `FILE_REFERENCE_EXPIRED` — the answer on which Telegram
/// clients fetch the message again for a fresh reference.
enum FileReferenceKind: UInt8, Sendable {
    case photo = 1
    case document = 2
}

extension ServerBackend {
    static let fileReferenceVersion: UInt8 = 1

    /// The reference for `kind` `id`.
    func fileReference(_ kind: FileReferenceKind, _ id: Int64) -> [UInt8] {
        // SHA-256 over a fixed-length input (secret, kind, id) cannot be extended into another valid input.
        let mac = Digest.sha256(fileReferenceKey, [kind.rawValue], withUnsafeBytes(of: id.littleEndian, Array.init))
        return [Self.fileReferenceVersion] + mac.prefix(16)
    }

    /// Throws unless `reference` is the one `fileReference(kind, id)` gives.
    func checkFileReference(_ reference: [UInt8], _ kind: FileReferenceKind, _ id: Int64) throws(APIError) {
        guard !reference.isEmpty else { throw .badRequest("FILE_REFERENCE_EMPTY") }
        guard reference.count == 17, reference[0] == Self.fileReferenceVersion else {
            throw .badRequest("FILE_REFERENCE_INVALID")
        }
        guard ConstantTime.equals(reference, fileReference(kind, id)) else {
            throw .badRequest("FILE_REFERENCE_EXPIRED")
        }
    }
}

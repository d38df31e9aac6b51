import ImageCore
import TelegramApi
import Testing

extension AttackHarness {
    /// Uploads a drawn `side`×`side` PNG as file `fileId` of key `key` and makes it that account's profile photo
    /// (`upload.saveFilePart`, `photos.uploadProfilePhoto`); each call is expected to succeed.
    func setProfilePhoto(key: Int64, fileId: Int64, side: Int = 64) {
        var bitmap = Bitmap(width: side, height: side)
        for y in 0..<side {
            for x in 0..<side { bitmap[x, y] = RGBA(r: UInt8(x * 255 / side), g: UInt8(y * 255 / side), b: 90, a: 255) }
        }
        #expect(
            error(
                Api.functions.upload.saveFilePart(fileId: fileId, filePart: 0, bytes: PNGCodec.encode(bitmap)), key: key
            )
                == nil)
        #expect(
            error(
                Api.functions.photos.uploadProfilePhoto(
                    file: .inputFile(.init(id: fileId, parts: 1, name: "me.png", md5Checksum: ""))), key: key) == nil)
    }
}

public import PostboxCoding

extension PostboxDecoder {
    /// A `Codable` field written by `PostboxEncoder.encode(_:forKey:)`, with every failure as a `PostboxDecodingError`.
    public func decodeCodable<T: Decodable>(_ type: T.Type, forKey key: String) throws(PostboxDecodingError) -> T {
        do {
            guard let value = try decode(type, forKey: key) else { throw PostboxDecodingError.missingField(key) }
            return value
        } catch let error as PostboxDecodingError {
            throw error
        } catch {
            throw .typeMismatch(key: key, expected: "\(T.self) (\(error))")
        }
    }

    /// An optional `Codable` field: `nil` when absent, an error when present and malformed.
    public func decodeOptionalCodable<T: Decodable>(
        _ type: T.Type, forKey key: String
    ) throws(PostboxDecodingError) -> T? {
        guard containsKey(key) else { return nil }
        return try decodeCodable(type, forKey: key)
    }
}

extension PostboxEncoder {
    /// Writes a `Codable` value; the value types of SyncCore encode without failing.
    public func encodeCodable<T: Encodable>(_ value: T, forKey key: String) {
        do {
            try encode(value, forKey: key)
        } catch {
            preconditionFailure("SyncCore value \(T.self) failed to encode: \(error)")
        }
    }
}

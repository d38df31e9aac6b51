/// Identity types as `Codable` values, for model types that store them through PostboxCoding's Codable adapter.
extension PeerId: Codable {
    /// A peer id is its packed `Int64`.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(Int64.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(toInt64())
    }
}

extension MediaId: Codable {
    private enum CodingKeys: String, CodingKey { case namespace = "n", id = "i" }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            namespace: try container.decode(Int32.self, forKey: .namespace),
            id: try container.decode(Int64.self, forKey: .id))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(namespace, forKey: .namespace)
        try container.encode(id, forKey: .id)
    }
}

/// Numbers outgoing messages and packs them into envelopes, the same way on both ends of a session (MTProto
/// §Message Identifier, §Message Sequence Number, §Containers): each message gets the next msg_id of its kind and
/// the next seq_no; messages sent together share a `msg_container` whose own id and seq_no come after its
/// children's, and a batch larger than one container allows (`MessageLimits`) is split over several.
public struct MessageSealer: Sendable {
    /// One message to send.
    public struct Outgoing: Sendable, Equatable {
        public let body: [UInt8]
        /// Whether the message needs an acknowledgement (odd seq_no): requests, answers, updates — everything but
        /// acknowledgements and containers.
        public let contentRelated: Bool
        /// Which kind of msg_id it takes (a client's; a server's response or server-initiated message).
        public let kind: MessageIdGenerator.Kind

        public init(body: [UInt8], contentRelated: Bool, kind: MessageIdGenerator.Kind) {
            self.body = body
            self.contentRelated = contentRelated
            self.kind = kind
        }
    }

    /// One envelope to encrypt: a single message, or a container of `children`.
    public struct Envelope: Sendable, Equatable {
        public let message: InnerMessage
        /// The messages inside (just `message` itself when it is not a container).
        public let children: [InnerMessage]
    }

    public var ids: MessageIdGenerator
    public private(set) var sequence = SequenceNumbers()

    public init(ids: MessageIdGenerator = MessageIdGenerator()) {
        self.ids = ids
    }

    /// Numbers `messages` in order at local time `now` and packs them into as few envelopes as the container
    /// limits allow; a container takes `containerKind` ids.
    public mutating func seal(
        _ messages: [Outgoing], containerKind: MessageIdGenerator.Kind, now: Double
    ) -> [Envelope] {
        var envelopes: [Envelope] = []
        var group: [InnerMessage] = []
        var groupBytes = 0
        func flush() {
            guard !group.isEmpty else { return }
            if group.count == 1 {
                envelopes.append(Envelope(message: group[0], children: group))
            } else {
                let container = InnerMessage(
                    messageId: ids.next(containerKind, now: now), seqNo: sequence.next(contentRelated: false),
                    body: ServiceCodec.container(group))
                envelopes.append(Envelope(message: container, children: group))
            }
            group = []
            groupBytes = 0
        }
        for outgoing in messages {
            let size = 16 + outgoing.body.count
            if !group.isEmpty,
                group.count == MessageLimits.maximumContainerMessages
                    || groupBytes + size > MessageLimits.maximumContainerBytes
            {
                flush()
            }
            group.append(
                InnerMessage(
                    messageId: ids.next(outgoing.kind, now: now),
                    seqNo: sequence.next(contentRelated: outgoing.contentRelated), body: outgoing.body))
            groupBytes += size
        }
        flush()
        return envelopes
    }
}

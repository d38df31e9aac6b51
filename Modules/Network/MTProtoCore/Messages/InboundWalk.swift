public import TLRuntime

/// Walks one decrypted message down to the messages it carries, as both ends of a session must (MTProto §Containers,
/// §Packed Object): a `msg_container` holds messages, a `gzip_packed` holds one object.
///
/// Nesting is bounded the same way on both sides: one level of container and one level of `gzip_packed` per
/// message, in either order (a container of packed messages, or a packed container), counted across the readers
/// each level opens. Every `gzip_packed` of the message, at any level — and inside the objects its leaves hold —
/// draws on one inflate budget (`TLReader.Limits.maxUnpackedSize`), and a container's children must carry msg_ids
/// below the container's own.
public enum InboundWalk {
    /// Why a part of a message was refused. The rest of the message is still walked.
    public enum Refusal: Error, Equatable, Sendable {
        /// A container inside a container.
        case nestedContainer
        /// A `gzip_packed` inside a `gzip_packed`.
        case nestedPackedObject
        /// A container that does not parse (a bad count or length, too many messages).
        case malformedContainer(TLDecodingError)
        /// A `gzip_packed` that does not inflate, or inflates past the message's budget.
        case malformedPackedObject(TLDecodingError)
        /// A container's child whose msg_id is not below the container's.
        case childIdNotBelowContainer(child: Int64, container: Int64)
        /// An empty body (no constructor id).
        case empty
    }

    /// Walks `message`. `accept` decides whether a container's child is taken at all (the msg_id and seq_no checks);
    /// `visit` receives each leaf with a reader over its body that carries the message's remaining depth and inflate
    /// budget; `refuse` hears about every part that was refused.
    public static func walk(
        _ message: InnerMessage, limits: TLReader.Limits = .init(),
        accept: (InnerMessage) -> Bool,
        visit: (InnerMessage, inout TLReader) -> Void,
        refuse: (InnerMessage, Refusal) -> Void
    ) {
        walk(message, limits: limits, inPlace: { _, _ in false }, accept: accept, visit: visit, refuse: refuse)
    }

    /// `walk`, with each child of a container first offered in place: `inPlace(child, containerBody)` sees the
    /// child's msg_id, seq_no and where its body lies in the container's body (already bounds-checked), before the
    /// body is copied out; when it returns true it has taken the child — checks and all — and `accept` and `visit`
    /// do not run for it. The client takes its plain `rpc_result`s this way: their answers are never copied out.
    static func walk(
        _ message: InnerMessage, limits: TLReader.Limits,
        inPlace: (ServiceCodec.ContainerEntry, [UInt8]) -> Bool,
        accept: (InnerMessage) -> Bool,
        visit: (InnerMessage, inout TLReader) -> Void,
        refuse: (InnerMessage, Refusal) -> Void
    ) {
        var carrier = TLReader([], limits: limits)
        walk(
            message, inContainer: false, packed: false, carrier: &carrier, inPlace: inPlace, accept: accept,
            visit: visit, refuse: refuse)
    }

    private static func walk(
        _ message: InnerMessage, inContainer: Bool, packed: Bool, carrier: inout TLReader,
        inPlace: (ServiceCodec.ContainerEntry, [UInt8]) -> Bool, accept: (InnerMessage) -> Bool,
        visit: (InnerMessage, inout TLReader) -> Void, refuse: (InnerMessage, Refusal) -> Void
    ) {
        switch message.constructorId {
        case nil:
            refuse(message, .empty)
        case ServiceCodec.containerId?:
            guard !inContainer else { return refuse(message, .nestedContainer) }
            let children: [ServiceCodec.ContainerEntry]
            do {
                try carrier.enter()
            } catch {
                return refuse(message, .malformedContainer(error))
            }
            defer { carrier.leave() }
            do {
                children = try ServiceCodec.containerLayout(message.body)
            } catch {
                return refuse(message, .malformedContainer(error))
            }
            for entry in children {
                guard entry.messageId < message.messageId else {
                    let child = entry.message(in: message.body)
                    refuse(child, .childIdNotBelowContainer(child: child.messageId, container: message.messageId))
                    continue
                }
                if inPlace(entry, message.body) { continue }
                let child = entry.message(in: message.body)
                guard accept(child) else { continue }
                walk(
                    child, inContainer: true, packed: packed, carrier: &carrier, inPlace: inPlace, accept: accept,
                    visit: visit, refuse: refuse)
            }
        case ServiceCodec.gzipPackedId?:
            guard !packed else { return refuse(message, .nestedPackedObject) }
            var reader = TLReader(message.body, continuing: carrier)
            let inflated: TLReader
            do throws(TLDecodingError) {
                try reader.enter()
                _ = try reader.readUInt32()
                inflated = try reader.unpackGzip()
                guard reader.isAtEnd else { throw .trailingBytes(count: reader.remaining, offset: reader.offset) }
            } catch {
                carrier.absorb(reader)
                return refuse(message, .malformedPackedObject(error))
            }
            carrier.absorb(reader)
            do {
                try carrier.enter()
            } catch {
                return refuse(message, .malformedPackedObject(error))
            }
            defer { carrier.leave() }
            let inner = InnerMessage(messageId: message.messageId, seqNo: message.seqNo, body: inflated.bytes)
            walk(
                inner, inContainer: inContainer, packed: true, carrier: &carrier, inPlace: inPlace, accept: accept,
                visit: visit, refuse: refuse)
        default:
            var reader = TLReader(message.body, continuing: carrier)
            visit(message, &reader)
            carrier.absorb(reader)
        }
    }
}

import MTProtoServer

/// Who made a call: its connection's key and session, the DC, and the account the key is signed in to.
struct Caller: Sendable {
    let authKeyId: Int64
    let sessionId: Int64
    let dc: Int32
    let userId: Int64
    /// The call asked not to have its effects pushed back to its own connection (`invokeWithoutUpdates`).
    let withoutUpdates: Bool

    /// The session that made the call, which gets its effects as the call's result rather than as a push.
    var target: UpdateGateway.Target { UpdateGateway.Target(authKeyId: authKeyId, sessionId: sessionId) }
}

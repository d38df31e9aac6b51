extension Signal {
    /// Runs this signal's generator with a forwarding subscriber whose events end in `downstream`.
    ///
    /// The fused path of stateless operators: no guard, no lock and no disposable of its own; `downstream` (a guard,
    /// or itself a forwarder that ends in one) enforces "nothing after the terminal event".
    @inlinable
    func forward(
        to downstream: any SubscriberControl, next: @escaping @Sendable (T) -> Void,
        error: @escaping @Sendable (E) -> Void, completed: @escaping @Sendable () -> Void
    ) -> Disposable {
        startForwarding(Subscriber<T, E>(forwardingTo: downstream, next: next, error: error, completed: completed))
    }

    /// Forwards every event unchanged to `downstream`.
    @inlinable
    func forwardAll(to downstream: Subscriber<T, E>) -> Disposable {
        forward(
            to: downstream, next: { downstream.putNext($0) }, error: { downstream.putError($0) },
            completed: { downstream.putCompletion() })
    }
}

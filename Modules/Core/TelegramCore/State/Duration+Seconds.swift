extension Duration {
    /// The duration in seconds, as the state manager's counters sum it.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}

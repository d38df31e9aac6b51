import AccountNetworking
import Foundation
import TelegramApi

extension AccountNetwork {
    /// Walks `TransportProbe`'s candidates for `dc`, whose endpoint in use did not answer, one at a time within the
    /// probe's bounds; the first that completes a handshake — the key exchange when the DC has no key yet, else the
    /// first call of a session on the kept key — becomes the DC's endpoint and is remembered in the store for this
    /// network (Telegram-iOS MtProtoKit: `MTDiscoverConnectionSignals` finds a scheme, `MTContext`'s
    /// `updateTransportSchemeForDatacenterWithId` keeps it). Returns the winner, or nil when none answered. Concurrent
    /// callers share one probe per DC; a DC whose probe found nothing is not probed again for `limits.deadline`.
    func probe(dc: Int32) async -> MTProtoConnection.Endpoint? {
        if let running = probes[dc] { return await running.value }
        guard let limits = probing, let current = datacenters[dc], !isClosed else { return nil }
        let now = Date().timeIntervalSince1970
        if let failed = failedProbes[dc], now - failed < limits.deadline { return nil }
        let remembered = store.transportScheme(datacenter: dc, network: networkIdentity).map(current.applying)
        let plan = TransportProbe(
            current: current, remembered: remembered, options: datacenterOptions[dc] ?? [], limits: limits, now: now)
        probeCount += 1
        let task = Task { await self.walk(plan, dc: dc) }
        probes[dc] = task
        let winner = await task.value
        probes[dc] = nil
        if let winner {
            probeWins += 1
            failedProbes[dc] = nil
            store.setTransportScheme(winner.scheme, datacenter: dc, network: networkIdentity)
            if datacenters[dc] != winner {
                datacenters[dc] = winner
                dropConnections(to: [dc])
            }
        } else {
            failedProbes[dc] = Date().timeIntervalSince1970
        }
        return winner
    }

    /// Tries `plan`'s candidates in order until one answers or the plan's bounds are spent.
    private func walk(_ plan: TransportProbe, dc: Int32) async -> MTProtoConnection.Endpoint? {
        for candidate in plan.candidates {
            guard !Task.isCancelled, !isClosed, plan.budget(now: Date().timeIntervalSince1970) != nil else {
                return nil
            }
            if await handshake(candidate, dc: dc, plan: plan) { return candidate }
        }
        return nil
    }

    /// Whether `endpoint` completes a handshake within `plan`'s budget: the key exchange (the new key is kept), or on
    /// a kept key a session's first call (`help.getNearestDc`, wrapped in `initConnection` as every first call is).
    private func handshake(_ endpoint: MTProtoConnection.Endpoint, dc: Int32, plan: TransportProbe) async -> Bool {
        guard let connectBudget = plan.budget(now: Date().timeIntervalSince1970) else { return false }
        guard let key = store.key(datacenter: dc) else {
            // The connect, then the exchange, each within the candidate's budget (`makeKey` keeps the key).
            let made = try? await makeKey(
                dc: dc, endpoint: endpoint, timeout: connectBudget, connectTimeout: connectBudget)
            return made != nil
        }
        var options = self.options
        options.connectTimeout = connectBudget
        guard
            let session = try? await DatacenterConnection.open(
                to: endpoint, key: key, group: exchangeLoop, options: options)
        else { return false }
        let answered: Bool
        if let callBudget = plan.budget(now: Date().timeIntervalSince1970) {
            do {
                _ = try await session.invoke(Api.functions.help.getNearestDc(), timeout: callBudget)
                answered = true
            } catch NetworkError.rpc {
                // The server answered (with an error): the transport works.
                answered = true
            } catch {
                answered = false
            }
        } else {
            answered = false
        }
        // Closed here, not later in a task of its own: the network's `close` awaits the probe, and its owner may shut
        // the event loops down right after.
        await session.close()
        return answered
    }
}

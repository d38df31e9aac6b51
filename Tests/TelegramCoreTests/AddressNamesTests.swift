import AccountNetworking
import CryptoUtils
import Foundation
import NIOCore
import NIOPosix
import Network
import ServerTestSupport
import SignalTesting
import SwiftSignalKit
import TelegramApi
import TelegramCore
import Testing

/// Usernames: the local rules, the interactive check on virtual time, and availability from tg-server.
@Suite struct AddressNamesTests {
    @Test func theLocalRulesAreTelegrams() {
        let cases: [(String, AddressNameFormatError?)] = [
            ("telegraph", nil), ("Tele_graph9", nil), ("abcde", nil), (String(repeating: "a", count: 32), nil),
            ("abcd", .tooShort), ("", .tooShort), ("abc_", .tooShort), (String(repeating: "a", count: 33), .tooLong),
            ("_abcde", .startsWithUnderscore), ("abcde_", .endsWithUnderscore), ("1abcde", .startsWithDigit),
            ("abc-de", .invalidCharacters), ("abcdé", .invalidCharacters), ("ab cde", .invalidCharacters),
        ]
        for (name, expected) in cases {
            #expect(checkAddressNameFormat(name) == expected, "\(name)")
        }
        #expect(checkAddressNameFormat("", canEmpty: true) == nil)
    }

    /// Counts the availability checks that reach the "server" and answers after a virtual 0.1 s.
    final class CountingServer: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var asked: [String] = []
        let queue: Queue

        init(queue: Queue) { self.queue = queue }

        func availability(_ name: String) -> Signal<AddressNameAvailability, NoError> {
            Signal { subscriber in
                self.lock.withLock { self.asked.append(name) }
                subscriber.putNext(name == "telegraph" ? .available : .taken)
                subscriber.putCompletion()
                return EmptyDisposable
            } |> delay(0.1, queue: queue)
        }
    }

    @Test func quickTypingAsksTheServerOnceForTheLastName() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let server = CountingServer(queue: queue)
        let field = MetaDisposable()
        let shown = LockedStatuses()
        for (index, name) in ["t", "te", "tel", "tele", "teleg", "telegr", "telegra", "telegraph"].enumerated() {
            scheduler.advance(to: Double(index) * 0.1)
            field.set(
                validateAddressNameInteractive(name: name, availability: server.availability, queue: queue)
                    .start(next: { shown.append(name, $0) }))
        }
        scheduler.advance(by: 5)
        #expect(server.asked == ["telegraph"])
        #expect(shown.all.first?.1 == .invalidFormat(.tooShort))
        #expect(shown.all.filter { $0.0 == "teleg" }.map(\.1) == [.checking])
        #expect(shown.all.last?.0 == "telegraph" && shown.all.last?.1 == .availability(.available))
        // The answer came 0.3 s (the delay) + 0.1 s (the server) after the last keystroke.
        #expect(scheduler.now >= 0.7 + 0.4)
    }

    final class LockedStatuses: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [(String, AddressNameValidationStatus)] = []
        func append(_ name: String, _ status: AddressNameValidationStatus) { lock.withLock { items.append((name, status)) } }
        var all: [(String, AddressNameValidationStatus)] { lock.withLock { items } }
    }

    /// The signal's first value, or a failure after `timeout` seconds.
    static func first<T: Sendable>(_ signal: Signal<T, NoError>, timeout: Double = 15) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { tasks in
            tasks.addTask { try await signal.get() }
            tasks.addTask {
                try await Task.sleep(nanoseconds: UInt64(timeout * 1e9))
                return nil
            }
            let value = try await tasks.next() ?? nil
            tasks.cancelAll()
            return try #require(value, "no value within \(timeout) s")
        }
    }

    @Test func availabilityComesFromTheServer() async throws {
        let backend = try await BackendServer()
        let ann = try await backend.connect()
        let ben = try await backend.connect()
        _ = try await BackendServer.signUp(ann, phone: "9996624001", name: "Ann")
        _ = try await BackendServer.signUp(ben, phone: "9996624002", name: "Ben")
        _ = try await ann.invoke(Api.functions.account.updateUsername(username: "telegraph_ann"))
        let check: (String) -> Signal<Bool, AddressNameCheckError> = { name in
            ben.request(Api.functions.account.checkUsername(username: name))
                |> mapError { error -> AddressNameCheckError in
                    if case .rpc(_, let message) = error { return .server(message) }
                    return .network
                }
        }
        #expect(try await Self.first(addressNameAvailability(name: "telegraph", check: check)) == .available)
        #expect(try await Self.first(addressNameAvailability(name: "Telegraph_Ann", check: check)) == .taken)
        #expect(try await Self.first(addressNameAvailability(name: "9lives", check: check)) == .invalid)
        await ann.close()
        await ben.close()
        try await backend.close()
    }
}

import SignalTesting
import SwiftSignalKit
import Testing

/// Telegram-iOS's UsernameSetupController use case, in virtual time: a local format check, `.checking` and then an
/// availability request started through `delay(0.3)`, a `MetaDisposable` that cancels the previous check on each
/// keystroke, and a `combineLatest` of theme, state and account that drives the screen.
@Suite struct UsernameSetupTests {
    enum AddressNameFormatError: Equatable, Sendable {
        case startsWithDigit, tooShort, invalidCharacters
    }

    enum AddressNameAvailability: Equatable, Sendable {
        case available, taken
    }

    enum AddressNameValidationStatus: Equatable, Sendable {
        case checking
        case invalidFormat(AddressNameFormatError)
        case availability(AddressNameAvailability)
    }

    struct UsernameSetupControllerState: Equatable, Sendable {
        var editingPublicLinkText: String?
        var addressNameValidationStatus: AddressNameValidationStatus?
        var updatingAddressName = false

        func withUpdatedEditingPublicLinkText(_ text: String?) -> Self {
            var state = self
            state.editingPublicLinkText = text
            return state
        }

        func withUpdatedAddressNameValidationStatus(_ status: AddressNameValidationStatus?) -> Self {
            var state = self
            state.addressNameValidationStatus = status
            return state
        }
    }

    static func checkAddressNameFormat(_ name: String) -> AddressNameFormatError? {
        if name.first?.isNumber == true { return .startsWithDigit }
        if !name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) { return .invalidCharacters }
        if name.count < 3 { return .tooShort }
        return nil
    }

    /// The fake backend: records when each request is made and answers at once.
    final class Backend: Sendable {
        let requests = Log()
        let scheduler: VirtualTimeScheduler

        init(scheduler: VirtualTimeScheduler) { self.scheduler = scheduler }

        func addressNameAvailability(name: String) -> Signal<AddressNameAvailability, NoError> {
            Signal { subscriber in
                self.requests.add("\(name)@\(milliseconds(self.scheduler.now))ms")
                subscriber.putNext(name == "durov" ? .taken : .available)
                subscriber.putCompletion()
                return EmptyDisposable
            }
        }
    }

    static func validateAddressNameInteractive(
        name: String, backend: Backend, queue: Queue
    )
        -> Signal<AddressNameValidationStatus, NoError>
    {
        if let error = checkAddressNameFormat(name) {
            return .single(.invalidFormat(error))
        }
        return .single(.checking)
            |> then(
                backend.addressNameAvailability(name: name)
                    |> delay(0.3, queue: queue)
                    |> map { .availability($0) })
    }

    @Test func typingCancelsStaleChecksAndTheScreenFollowsState() {
        let scheduler = VirtualTimeScheduler()
        let uiQueue = scheduler.makeQueue(name: "ui")
        let backgroundQueue = scheduler.makeQueue(name: "background")
        let backend = Backend(scheduler: scheduler)

        let presentationData = ValuePromise("day", ignoreRepeated: true)
        let peerView = ValuePromise("@old", ignoreRepeated: true)
        let statePromise = ValuePromise(UsernameSetupControllerState(), ignoreRepeated: true)
        let checkAddressNameDisposable = MetaDisposable()

        let updateState: @Sendable ((UsernameSetupControllerState) -> UsernameSetupControllerState) -> Void = { f in
            statePromise.set(f(statePromise.value!))
        }
        let textChanged: @Sendable (String) -> Void = { text in
            updateState { $0.withUpdatedEditingPublicLinkText(text) }
            if text.isEmpty {
                checkAddressNameDisposable.set(nil)
                updateState { $0.withUpdatedAddressNameValidationStatus(nil) }
            } else {
                checkAddressNameDisposable.set(
                    (Self.validateAddressNameInteractive(name: text, backend: backend, queue: backgroundQueue)
                        |> deliverOn(uiQueue))
                        .start(next: { result in updateState { $0.withUpdatedAddressNameValidationStatus(result) } }))
            }
        }

        let screen =
            combineLatest(presentationData.get(), statePromise.get() |> deliverOn(uiQueue), peerView.get())
            |> map { theme, state, peer -> String in
                let status: String
                switch state.addressNameValidationStatus {
                case nil: status = "-"
                case .checking: status = "checking"
                case .invalidFormat(let error): status = "invalid(\(error))"
                case .availability(let availability): status = "\(availability)"
                }
                let done = state.addressNameValidationStatus == .availability(.available) ? "on" : "off"
                return "\(theme) \(peer) '\(state.editingPublicLinkText ?? "")' \(status) done:\(done)"
            }
        let recorder = EventRecorder(screen, scheduler: scheduler)
        scheduler.advance(by: 0)

        for text in ["du", "dur", "duro", "durov"] {
            uiQueue.justDispatch { textChanged(text) }
            scheduler.advance(by: 0.1)
        }
        scheduler.advance(to: 1.0)
        presentationData.set("night")
        uiQueue.justDispatch { textChanged("durov1") }
        scheduler.advance(to: 2.0)
        uiQueue.justDispatch { textChanged("") }
        scheduler.advance(to: 3.0)

        // Only the names that survived 0.3 s without a newer keystroke reached the backend.
        #expect(backend.requests.all == ["durov@600ms", "durov1@1300ms"])
        #expect(
            recorder.timedEvents.map { "\(milliseconds($0.time)) \(Self.value($0.event))" } == [
                "0 day @old '' - done:off",
                "0 day @old 'du' - done:off",
                "0 day @old 'du' invalid(tooShort) done:off",
                "100 day @old 'dur' invalid(tooShort) done:off",
                "100 day @old 'dur' checking done:off",
                "200 day @old 'duro' checking done:off",
                "300 day @old 'durov' checking done:off",
                "600 day @old 'durov' taken done:off",
                "1000 night @old 'durov' taken done:off",
                "1000 night @old 'durov1' taken done:off",
                "1000 night @old 'durov1' checking done:off",
                "1300 night @old 'durov1' available done:on",
                "2000 night @old '' available done:on",
                "2000 night @old '' - done:off",
            ])
        #expect(statePromise.value?.editingPublicLinkText == "")
        recorder.dispose()
        checkAddressNameDisposable.dispose()
        #expect(scheduler.pendingTaskCount == 0)
    }

    static func value(_ event: SignalEvent<String, NoError>) -> String {
        if case .Next(let value) = event { return value }
        return "\(event)"
    }
}

/// Virtual seconds as whole milliseconds, for exact comparison.
func milliseconds(_ seconds: Double) -> Int {
    Int((seconds * 1000).rounded())
}

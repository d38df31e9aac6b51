public import SwiftSignalKit

/// Why a username cannot be used, found without asking the server (Telegram-iOS
/// `TelegramCore/Sources/TelegramEngine/Peers/AddressNames.swift`, `checkAddressNameFormat`; the server's rules:
/// 5–32 characters, a letter first, then letters, digits and underscores, no underscore at the end).
public enum AddressNameFormatError: Equatable, Sendable {
    case startsWithUnderscore
    case endsWithUnderscore
    case startsWithDigit
    case tooShort
    case tooLong
    case invalidCharacters
}

/// What the server says about a well-formed username.
public enum AddressNameAvailability: Equatable, Sendable {
    case available
    case invalid
    case taken
    case purchaseAvailable
}

/// What a username field shows while the user types.
public enum AddressNameValidationStatus: Equatable, Sendable {
    case checking
    case invalidFormat(AddressNameFormatError)
    case availability(AddressNameAvailability)
}

/// Why `account.checkUsername` did not answer true or false.
public enum AddressNameCheckError: Error, Equatable, Sendable {
    /// The server answered an `rpc_error` with this message (`USERNAME_INVALID`, `USERNAME_OCCUPIED`, …).
    case server(String)
    /// The request did not reach the server or its answer did not come back.
    case network
}

/// The shortest and longest usernames an account may have.
public let addressNameLengths = 5...32

/// The local rules, checked character by character in order (so "_1" is `startsWithUnderscore`); `canEmpty` accepts
/// "" (removing a username).
public func checkAddressNameFormat(_ value: String, canEmpty: Bool = false) -> AddressNameFormatError? {
    if value.isEmpty && canEmpty { return nil }
    let characters = Array(value.unicodeScalars)
    for (index, character) in characters.enumerated() {
        let isLetter = ("a"..."z").contains(character) || ("A"..."Z").contains(character)
        let isDigit = ("0"..."9").contains(character)
        if character == "_" {
            if index == 0 { return .startsWithUnderscore }
            if index == characters.count - 1 {
                return characters.count < addressNameLengths.lowerBound ? .tooShort : .endsWithUnderscore
            }
        } else if index == 0 && isDigit {
            return .startsWithDigit
        } else if !isLetter && !isDigit {
            return .invalidCharacters
        }
    }
    if characters.count < addressNameLengths.lowerBound { return .tooShort }
    if characters.count > addressNameLengths.upperBound { return .tooLong }
    return nil
}

/// The server's answer about `name` for the account: `check` performs `account.checkUsername` (true: free).
/// `USERNAME_OCCUPIED` is taken, `USERNAME_PURCHASE_AVAILABLE` may be bought, anything else is invalid.
public func addressNameAvailability(
    name: String, check: (String) -> Signal<Bool, AddressNameCheckError>
) -> Signal<AddressNameAvailability, NoError> {
    check(name)
        |> map { free -> AddressNameAvailability in free ? .available : .taken }
        |> `catch` { error -> Signal<AddressNameAvailability, NoError> in
            switch error {
            case .server("USERNAME_OCCUPIED"): return .single(.taken)
            case .server("USERNAME_PURCHASE_AVAILABLE"): return .single(.purchaseAvailable)
            case .server, .network: return .single(.invalid)
            }
        }
}

/// What a username field shows for `name` as it is typed: a format error at once, or `checking` and — 0.3 s later,
/// on `queue` — the server's answer. A caller that replaces the subscription for every keystroke (a
/// `MetaDisposable`) cancels the pending check, so quick typing asks the server once, for the last name.
public func validateAddressNameInteractive(
    name: String, availability: (String) -> Signal<AddressNameAvailability, NoError>, queue: Queue
) -> Signal<AddressNameValidationStatus, NoError> {
    if let error = checkAddressNameFormat(name) {
        return .single(.invalidFormat(error))
    }
    return .single(.checking)
        |> then(
            availability(name)
                |> delay(0.3, queue: queue)
                |> map { AddressNameValidationStatus.availability($0) })
}

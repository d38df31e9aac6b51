import AccountNetworking
import Network
public import Postbox
import SyncCore
import TelegramApi

/// One contact of a phone book, as `contacts.importContacts` takes it (`inputPhoneContact`).
public struct PhoneContact: Hashable, Sendable {
    /// The number as written (`+44 20 7946 0000`); the server reads its digits.
    public var phone: String
    public var firstName: String
    public var lastName: String

    public init(phone: String, firstName: String, lastName: String = "") {
        self.phone = phone
        self.firstName = firstName
        self.lastName = lastName
    }

    /// The number's digits only: two spellings of one number are one contact.
    public var normalizedPhone: String { phone.filter(\.isASCII).filter(\.isNumber) }
}

/// What an import did, contact by contact.
public struct ContactImportReport: Equatable, Sendable {
    /// Contacts who have an account, with it, in the order given.
    public var imported: [Imported] = []
    /// Contacts the server found no account for.
    public var notOnTelegram: [PhoneContact] = []
    /// How many contacts were sent again because the server answered them in `retry_contacts`.
    public var retried = 0
    /// Contacts still not imported: the server kept asking to retry them, or a flood wait stopped the import.
    public var retryLater: [PhoneContact] = []
    /// The `FLOOD_WAIT_X` seconds that stopped the import, when one did.
    public var floodWait: Int?

    /// A contact and the user that has its number.
    public struct Imported: Equatable, Sendable {
        public var contact: PhoneContact
        public var peerId: PeerId
    }

    public init() {}
}

/// How `Account.importContacts` batches and retries.
public struct ContactImportOptions: Sendable {
    /// Contacts per `contacts.importContacts` (Telegram-iOS `importBatchCount`, 500, also the server's limit).
    public var batchSize: Int
    /// How many times the contacts answered in `retry_contacts` are sent again before they are left for later.
    public var retryRounds: Int
    /// Seconds between those rounds.
    public var retryDelay: Double
    /// A `FLOOD_WAIT_X` the network did not wait out itself is waited here when X is at most this; longer stops the
    /// import (`ContactImportReport.floodWait`).
    public var maxFloodWait: Double
    /// How many flood waits one batch may wait out before the import stops (a server that keeps answering
    /// `FLOOD_WAIT` does not hold the import forever).
    public var floodWaitsPerBatch: Int
    /// How the importer waits (virtual time in tests).
    public var sleep: @Sendable (Double) async -> Void

    public init(
        batchSize: Int = 500, retryRounds: Int = 3, retryDelay: Double = 1, maxFloodWait: Double = 0,
        floodWaitsPerBatch: Int = 3,
        sleep: @escaping @Sendable (Double) async -> Void = { seconds in
            try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
        }
    ) {
        self.batchSize = max(1, min(batchSize, 500))
        self.retryRounds = max(0, retryRounds)
        self.retryDelay = retryDelay
        self.maxFloodWait = maxFloodWait
        self.floodWaitsPerBatch = max(0, floodWaitsPerBatch)
        self.sleep = sleep
    }
}

extension Account {
    /// Imports phone contacts in batches (`contacts.importContacts`; Telegram-iOS `pushDeviceContactData`): each
    /// batch's users are stored and added to the stored contacts as its answer comes; contacts answered in
    /// `retry_contacts` are sent again after `retryDelay`, up to `retryRounds` times; a flood wait longer than
    /// `maxFloodWait` stops the import, what was imported before it staying stored. Numbers given twice are sent once.
    public func importContacts(
        _ contacts: [PhoneContact], options: ContactImportOptions = ContactImportOptions()
    ) async throws(MessageActionError) -> ContactImportReport {
        var seen: Set<String> = []
        var pending = contacts.filter { seen.insert($0.normalizedPhone).inserted }
        var report = ContactImportReport()
        var round = 0
        while !pending.isEmpty {
            var retry: [PhoneContact] = []
            var start = 0
            var floodWaits = 0
            while start < pending.count {
                let batch = Array(pending[start..<min(start + options.batchSize, pending.count)])
                let answer: Api.contacts.ImportedContacts
                do {
                    answer = try await network.request(
                        Api.functions.contacts.importContacts(
                            contacts: batch.enumerated().map { index, contact in
                                .inputPhoneContact(
                                    .init(
                                        clientId: Int64(index), phone: contact.phone, firstName: contact.firstName,
                                        lastName: contact.lastName))
                            }))
                } catch NetworkError.rpc(420, let message) where message.hasPrefix("FLOOD_WAIT_") {
                    let seconds = Int(message.dropFirst("FLOOD_WAIT_".count)) ?? 0
                    if Double(seconds) <= options.maxFloodWait, floodWaits < options.floodWaitsPerBatch {
                        floodWaits += 1
                        await options.sleep(Double(seconds))
                        continue
                    }
                    report.floodWait = seconds
                    report.retryLater += retry + pending[start...]
                    return report
                } catch NetworkError.rpc(_, let message) {
                    throw .refused(message)
                } catch let error as NetworkError {
                    throw .network(error)
                } catch {
                    throw .network(.connectionClosed)
                }
                let (imported, again) = try storeImported(answer, batch: batch)
                report.imported += imported
                let answered = Set(imported.map(\.contact)).union(again)
                retry += again
                report.notOnTelegram += batch.filter { !answered.contains($0) }
                start += batch.count
                floodWaits = 0
            }
            guard !retry.isEmpty else { break }
            guard round < options.retryRounds else {
                report.retryLater += retry
                break
            }
            round += 1
            report.retried += retry.count
            await options.sleep(options.retryDelay)
            pending = retry
        }
        return report
    }

    /// Stores one `contacts.importedContacts`: its users, and the imported ones as contacts; the batch's contacts
    /// imported (in batch order) and those to retry.
    private func storeImported(
        _ answer: Api.contacts.ImportedContacts, batch: [PhoneContact]
    ) throws(MessageActionError) -> ([ContactImportReport.Imported], [PhoneContact]) {
        guard case .importedContacts(let body) = answer else { return ([], []) }
        var userByClient: [Int64: PeerId] = [:]
        for case .importedContact(let entry) in body.imported { userByClient[entry.clientId] = .user(entry.userId) }
        let imported = batch.enumerated().compactMap { index, contact -> ContactImportReport.Imported? in
            userByClient[Int64(index)].map { ContactImportReport.Imported(contact: contact, peerId: $0) }
        }
        let retry = body.retryContacts.compactMap { id in batch.indices.contains(Int(id)) ? batch[Int(id)] : nil }
        do {
            try postbox.transactionSync { tx in
                _ = try UpdateBatchApplier(accountPeerId: peerId).storePeers(
                    users: body.users, chats: [], transaction: tx)
                for entry in imported { try ContactList.set(entry.peerId, isContact: true, transaction: tx) }
            }
        } catch {
            throw .storage("\(error)")
        }
        return (imported, retry)
    }
}

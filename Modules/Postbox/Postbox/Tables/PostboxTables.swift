import ValueBox

/// Every table of a Postbox over one connection, with the table ids of Telegram-iOS's Postbox.
final class PostboxTables {
    let valueBox: SqliteValueBox
    let metadata: MetadataTable
    let keychain: KeychainTable
    let peers: PeerTable
    let messageIndex: MessageHistoryIndexTable
    let media: MessageMediaTable
    let history: MessageHistoryTable
    let chatListIndex: ChatListIndexTable
    let chatList: ChatListTable
    let historyMetadata: MessageHistoryMetadataTable
    let unsent: UnsentTable
    let tags: MessageHistoryTagsTable
    let readStates: ReadStateTable
    let peerChatStates: PeerChatStateTable
    let presences: PeerPresenceTable
    let contacts: ContactTable
    let globallyUniqueIds: GloballyUniqueIdTable
    let globalMessageIds: GlobalMessageIdsTable
    let preferences: PreferencesTable
    let orderedItemLists: OrderedItemListTable
    let textIndex: TextIndexTable
    let holes: HoleIndexTable
    let changeLog: ChangeLogTable

    init(valueBox: SqliteValueBox) {
        func binary(_ id: Int32, compact: Bool = false) -> ValueBoxTable {
            ValueBoxTable(id: id, keyType: .binary, compactValuesOnCreation: compact)
        }
        func int64(_ id: Int32) -> ValueBoxTable {
            ValueBoxTable(id: id, keyType: .int64, compactValuesOnCreation: false)
        }
        self.valueBox = valueBox
        metadata = MetadataTable(valueBox: valueBox, table: binary(0))
        keychain = KeychainTable(valueBox: valueBox, table: binary(1))
        peers = PeerTable(valueBox: valueBox, table: int64(2))
        messageIndex = MessageHistoryIndexTable(valueBox: valueBox, table: binary(4, compact: true))
        media = MessageMediaTable(valueBox: valueBox, table: binary(6))
        history = MessageHistoryTable(valueBox: valueBox, table: binary(7))
        chatListIndex = ChatListIndexTable(valueBox: valueBox, table: int64(8))
        chatList = ChatListTable(valueBox: valueBox, table: binary(9, compact: true))
        historyMetadata = MessageHistoryMetadataTable(valueBox: valueBox, table: binary(10, compact: true))
        unsent = UnsentTable(valueBox: valueBox, table: binary(11, compact: true))
        tags = MessageHistoryTagsTable(valueBox: valueBox, table: binary(12, compact: true))
        peerChatStates = PeerChatStateTable(valueBox: valueBox, table: int64(13))
        readStates = ReadStateTable(valueBox: valueBox, table: int64(14))
        presences = PeerPresenceTable(valueBox: valueBox, table: int64(20))
        contacts = ContactTable(valueBox: valueBox, table: int64(16))
        globallyUniqueIds = GloballyUniqueIdTable(valueBox: valueBox, table: binary(32, compact: true))
        globalMessageIds = GlobalMessageIdsTable(valueBox: valueBox, table: binary(5, compact: true))
        preferences = PreferencesTable(valueBox: valueBox, table: binary(35))
        orderedItemLists = OrderedItemListTable(valueBox: valueBox, table: binary(38))
        textIndex = TextIndexTable(valueBox: valueBox)
        holes = HoleIndexTable(valueBox: valueBox, table: binary(56, compact: true))
        changeLog = ChangeLogTable(valueBox: valueBox, table: int64(90))
    }
}

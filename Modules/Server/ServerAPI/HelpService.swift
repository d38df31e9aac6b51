import Foundation
public import MTProtoServer
import TLRuntime
public import TelegramApi

/// `help.*` methods: the configuration a client reads right after connecting.
public struct HelpService: Sendable {
    /// The data centers `help.getConfig` lists, as bound.
    public let dataCenters: [MTProtoServer.DataCenter]

    public init(dataCenters: [MTProtoServer.DataCenter]) {
        self.dataCenters = dataCenters
    }

    /// `help.getConfig`: this server's data centers in `dc_options`, `this_dc` the one asked, and Telegram's
    /// usual limits.
    public func config(thisDc: Int32, now: Double) -> Api.Config {
        let date = Int32(clamping: Int64(now))
        return .config(
            .init(
                date: date, expires: date + 3600, testMode: false, thisDc: thisDc,
                dcOptions: dcOptions,
                dcTxtDomainName: "localhost", chatSizeMax: 200, megagroupSizeMax: 200_000, forwardedCountMax: 100,
                onlineUpdatePeriodMs: 210_000, offlineBlurTimeoutMs: 5000, offlineIdleTimeoutMs: 30_000,
                onlineCloudTimeoutMs: 300_000, notifyCloudDelayMs: 30_000, notifyDefaultDelayMs: 1500,
                pushChatPeriodMs: 60_000, pushChatLimit: 2, editTimeLimit: 172_800, revokeTimeLimit: 2_147_483_647,
                revokePmTimeLimit: 2_147_483_647, ratingEDecay: 2_419_200, stickersRecentLimit: 200,
                channelsReadMediaPeriod: 604_800, callReceiveTimeoutMs: 20_000, callRingTimeoutMs: 90_000,
                callConnectTimeoutMs: 30_000, callPacketTimeoutMs: 10_000, meUrlPrefix: "https://t.me/",
                captionLengthMax: Int32(TextLimit.caption.maximum), messageLengthMax: Int32(TextLimit.message.maximum),
                webfileDcId: 4))
    }

    /// Each DC's address, then the same address as media-only (Telegram lists separate media addresses; a client
    /// that takes the first address of a DC, as Telethon does, gets the generic one).
    var dcOptions: [Api.DcOption] {
        dataCenters.map { .dcOption(.init(id: $0.id, ipAddress: $0.host, port: Int32($0.port))) }
            + dataCenters.map { .dcOption(.init(mediaOnly: true, id: $0.id, ipAddress: $0.host, port: Int32($0.port))) }
    }

    /// `help.getNearestDc`: every client is nearest to the DC it asked.
    public func nearestDc(thisDc: Int32) -> Api.NearestDc {
        .nearestDc(.init(country: "XX", thisDc: thisDc, nearestDc: thisDc))
    }
}

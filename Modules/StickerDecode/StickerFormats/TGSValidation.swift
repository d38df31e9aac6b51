import Foundation
public import GZip

/// What a `.tgs` sticker says about itself, read from its Lottie JSON without rendering.
public struct TGSInfo: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Declared frames per second (`fr`).
    public let frameRate: Double
    /// First and one-past-last frame (`ip`, `op`).
    public let inPoint: Double
    public let outPoint: Double
    /// Bytes as stored (gzip) and as JSON.
    public let compressedSize: Int
    public let jsonSize: Int
    /// Whether the input was gzip (a `.tgs`) rather than plain JSON.
    public let wasGZip: Bool
    /// Layers at the top level.
    public let layerCount: Int
    /// What rendering it costs rlottie: how far its geometry reaches, its expanded shape and layer counts.
    public let renderBudget: LottieRenderBudget

    /// Frames to render.
    public var frameCount: Int { max(0, Int((outPoint - inPoint).rounded(.down))) }
    /// Seconds.
    public var duration: Double { frameRate > 0 ? (outPoint - inPoint) / frameRate : 0 }
}

/// One of Telegram's animated-sticker rules that a `.tgs` breaks (reported, not fatal).
public enum StickerLimitViolation: Sendable, Equatable, CustomStringConvertible {
    case canvas(width: Int, height: Int)
    case frameRate(Double)
    case duration(Double)
    case compressedSize(Int)

    public var description: String {
        switch self {
        case .canvas(let w, let h): return "canvas is \(w)×\(h), Telegram requires 512×512"
        case .frameRate(let fps): return "frame rate \(fps) exceeds 60 fps"
        case .duration(let seconds): return "duration \(seconds) s exceeds 3 s"
        case .compressedSize(let bytes): return "size \(bytes) bytes exceeds 64 KB"
        }
    }
}

/// Why a `.tgs` could not be read at all.
public enum TGSError: Error, Equatable, Sendable, CustomStringConvertible {
    case gzip(GZipError)
    case notJSON(String)
    case notLottie(String)
    /// Past a bound that keeps rlottie's work finite and its coordinates in range (see `LottieRenderBudget`).
    case beyondRenderLimits(String)

    public var description: String {
        switch self {
        case .gzip(let error): return "tgs: \(error)"
        case .notJSON(let why): return "tgs: not JSON: \(why)"
        case .notLottie(let why): return "tgs: not a Lottie animation: \(why)"
        case .beyondRenderLimits(let why): return "tgs: refused before rendering: \(why)"
        }
    }
}

/// `.tgs` = gzipped Lottie JSON: unpacking with Telegram's 8 MB cap (Telegram-iOS `AnimatedStickerDirectFrameSource`,
/// `submodules/AnimatedStickerNode/Sources/AnimatedStickerFrameSource.swift`), structural validation, limits.
public enum TGSValidation {
    /// Telegram's gunzip cap for stickers (`TGGUnzipData(data, 8 * 1024 * 1024)`).
    public static let maxJSONSize = 8 * 1024 * 1024
    /// Hard limits past which the data is refused as not a sticker at all (renderers must not be fed such input).
    public static let maxCanvasSide = 4096
    public static let maxFrames = 10_000
    /// Telegram's animated-sticker rules.
    public static let stickerSide = 512
    public static let maxFrameRate = 60.0
    public static let maxDuration = 3.0
    public static let maxCompressedSize = 64 * 1024

    /// Gunzips (or passes plain JSON through) with the 8 MB cap.
    public static func unpack(_ bytes: [UInt8]) throws(TGSError) -> (json: [UInt8], wasGZip: Bool) {
        if GZip.isGZip(bytes) {
            do { return (try GZip.decompress(bytes, maxOutput: maxJSONSize), true) } catch { throw .gzip(error) }
        }
        guard bytes.count <= maxJSONSize else { throw .gzip(.outputLimitExceeded(limit: maxJSONSize)) }
        return (bytes, false)
    }

    /// Unpacks and checks the Lottie structure: numbers where numbers belong, sane sizes, a layer array, and what
    /// rendering it would cost (`LottieRenderBudget`: nesting, expanded shape count, repeaters).
    public static func inspect(_ bytes: [UInt8]) throws(TGSError) -> (info: TGSInfo, json: [UInt8]) {
        let (json, wasGZip) = try unpack(bytes)
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: Data(json)) } catch {
            throw .notJSON("\(error.localizedDescription)")
        }
        guard let root = object as? [String: Any] else { throw .notLottie("top level is not an object") }
        func number(_ key: String) throws(TGSError) -> Double {
            guard let value = root[key] as? NSNumber else { throw .notLottie("no number '\(key)'") }
            let double = value.doubleValue
            guard double.isFinite else { throw .notLottie("'\(key)' is not finite") }
            return double
        }
        let width = try number("w"), height = try number("h"), rate = try number("fr")
        let inPoint = try number("ip"), outPoint = try number("op")
        guard width >= 1, height >= 1, width <= Double(maxCanvasSide), height <= Double(maxCanvasSide) else {
            throw .notLottie("canvas \(width)×\(height) outside 1…\(maxCanvasSide)")
        }
        guard rate > 0, rate <= 1000 else { throw .notLottie("frame rate \(rate)") }
        guard outPoint > inPoint, outPoint - inPoint <= Double(maxFrames), abs(inPoint) < 1e6 else {
            throw .notLottie("frames \(inPoint)…\(outPoint)")
        }
        guard let layers = root["layers"] as? [Any] else { throw .notLottie("no layer array") }
        guard layers.allSatisfy({ $0 is [String: Any] }) else { throw .notLottie("a layer is not an object") }
        let budget = try LottieRenderBudget.measure(root: root)
        let info = TGSInfo(
            width: Int(width), height: Int(height), frameRate: rate, inPoint: inPoint, outPoint: outPoint,
            compressedSize: bytes.count, jsonSize: json.count, wasGZip: wasGZip, layerCount: layers.count,
            renderBudget: budget)
        return (info, json)
    }

    /// Telegram's animated-sticker rules that `info` breaks (512×512, ≤ 60 fps, ≤ 3 s, ≤ 64 KB compressed).
    public static func violations(_ info: TGSInfo) -> [StickerLimitViolation] {
        var result: [StickerLimitViolation] = []
        if info.width != stickerSide || info.height != stickerSide {
            result.append(.canvas(width: info.width, height: info.height))
        }
        if info.frameRate > maxFrameRate { result.append(.frameRate(info.frameRate)) }
        if info.duration > maxDuration + 1e-9 { result.append(.duration(info.duration)) }
        if info.compressedSize > maxCompressedSize { result.append(.compressedSize(info.compressedSize)) }
        return result
    }
}

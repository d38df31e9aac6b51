public import WebPBinding

extension AnimatedStickerFrameSource {
    /// The sticker as an animated WebP at `fps` frames per second (default: its own rate, at most 30). Frame
    /// durations come from exact millisecond times, so rounding does not drift over the loop.
    public func animatedWebP(fps: Double? = nil, compression: WebPCompression) throws -> [UInt8] {
        let rate = fps ?? min(30, frameRate > 0 ? frameRate : 30)
        let indices = frameRate > 0 ? frameIndices(outputRate: rate) : Array(0..<frameCount)
        let frames = try indices.map { try frame(at: $0) }
        let times = (0...frames.count).map { Int((Double($0) * 1000 / rate).rounded()) }
        let durations = (0..<frames.count).map { times[$0 + 1] - times[$0] }
        return try WebPEncoder.encodeAnimation(frames, durations: durations, compression)
    }
}

import Foundation

/// What rendering a Lottie animation would cost rlottie, estimated from its JSON before rlottie sees it, and the
/// bounds past which an animation is refused rather than rendered.
///
/// The system rlottie (0.1) has none of the limits upstream added later (github.com/Samsung/rlottie: "Safety limits
/// to precomp, repeater, and polystar handling", "Add shape-content budget to bound repeater cost", "Fix heap buffer
/// overflow from short truncation of span Y coordinate"). Its rasterizer keeps span coordinates in 16-bit integers, so
/// geometry far past ±32,767 device pixels misbehaves: a 180-unit square scaled by 1,004,100 % took over two minutes of
/// CPU for one 16×16 frame. Those limits are applied here instead:
/// - `extent`: an upper bound on how far from the canvas origin any drawn point can get, in canvas units, computed
///   with intervals through every transform (group `tr`, repeaters, layer `ks` along the parent chain, precomp layers)
///   and over every value keyframes and their easing curves can take (`LottieGeometry.swift`). A renderer checks
///   `extent × (render side / canvas side)` against `maxDeviceExtent`.
/// - `contentCost`: shape items weighted as upstream weighs them (a polystar by its points, ≤ 1,024), multiplied by
///   the repeaters' copies and by how often a precomp is instantiated; at most `maxContentCost`.
/// - precomp nesting at most `maxDepth` deep, layer instances at most `maxLayerInstances`, repeater copies at most
///   `maxRepeaterCopies`, groups nested at most `maxDepth` deep.
public struct LottieRenderBudget: Sendable, Equatable {
    /// Farthest a drawn point can be from the origin, in canvas units (an upper bound).
    public let extent: Double
    /// The name (`nm`) of the layer whose geometry reaches `extent`.
    public let farthestLayer: String
    /// Weighted count of shape items after repeaters and precomps are expanded.
    public let contentCost: Double
    /// Layers after precomps are expanded.
    public let layerInstances: Int

    /// Device pixels a point may reach: the rasterizer's 16-bit range (32,767) less a margin. `extent` is an upper
    /// bound of the real coordinates (rotations widen it to the radius, strokes by their miter reach), so geometry
    /// within it never leaves that range. The 100 animations among rlottie's own example files reach at most 7.8
    /// times their canvas side, within this at the largest render (2048 px) of a 512 canvas.
    public static let maxDeviceExtent = 30_000.0
    /// Upstream's `kMaxShapeContentBudget`.
    public static let maxContentCost = 15_000.0
    /// Upstream's `kMaxLayerDepth` / `kMaxModelTreeDepth`.
    public static let maxDepth = 32
    /// Upstream's `kMaxLayerNodes`.
    public static let maxLayerInstances = 100_000
    /// Upstream's `kMaxRepeaterCopies`.
    public static let maxRepeaterCopies = 10_000.0
    /// Upstream's `kMaxPolyPoints`.
    public static let maxPolystarPoints = 1_024.0

    /// `extent` for people: whole units, or powers of ten when too large to print whole.
    public var extentDescription: String {
        extent < 1e15 ? "\(Int(extent.rounded(.up)))" : String(format: "%.3g", extent)
    }

    /// Whether rendering at `scale` device pixels per canvas unit keeps every point within `maxDeviceExtent`.
    public func fitsRender(scale: Double) -> Bool { extent * scale <= Self.maxDeviceExtent }

    /// Walks the Lottie root object; throws `TGSError.beyondRenderLimits` naming the first bound broken.
    static func measure(root: [String: Any]) throws(TGSError) -> LottieRenderBudget {
        var walker = Walker()
        for case let asset as [String: Any] in root["assets"] as? [Any] ?? [] {
            if let id = asset["id"] as? String {
                walker.assets[id] = asset
            }
        }
        var extent = 0.0
        var farthest = ""
        for case let layer as [String: Any] in root["layers"] as? [Any] ?? [] {
            let box = try walker.placed(layer, among: root["layers"] as? [Any] ?? [], weight: 1, depth: 0)
            if box.magnitude > extent { (extent, farthest) = (box.magnitude, Walker.name(of: layer)) }
        }
        guard extent.isFinite else { throw .beyondRenderLimits("layer '\(farthest)' has unbounded geometry") }
        return LottieRenderBudget(
            extent: extent, farthestLayer: farthest, contentCost: walker.cost, layerInstances: walker.layerInstances)
    }
}

/// Measures bottom-up: a shape list's box in its own coordinates, mapped by its transform into its parent's; a
/// layer's content mapped by its `ks` and its parents' up the chain; a precomp's layers into the precomp layer.
private struct Walker {
    var assets: [String: [String: Any]] = [:]
    var cost = 0.0
    var layerInstances = 0

    static func name(of layer: [String: Any]) -> String {
        layer["nm"] as? String ?? "#\(LottieValue.int(layer["ind"]) ?? 0)"
    }

    /// `layer`'s drawn box in the coordinates of the list it belongs to, each instance counting `weight` times.
    mutating func placed(
        _ layer: [String: Any], among list: [Any], weight: Double, depth: Int
    ) throws(TGSError)
        -> Box
    {
        layerInstances += Int(min(weight, Double(LottieRenderBudget.maxLayerInstances) + 1))
        guard layerInstances <= LottieRenderBudget.maxLayerInstances else {
            throw .beyondRenderLimits("over \(LottieRenderBudget.maxLayerInstances) layers once precomps expand")
        }
        var box = try content(of: layer, weight: weight, depth: depth)
        // The layer's own transform, then its parents' up the chain.
        var current = layer
        var links = 0
        while true {
            box = LottieValue.transform(current["ks"] as? [String: Any], box)
            guard let parent = LottieValue.int(current["parent"]),
                let next = list.lazy.compactMap({ $0 as? [String: Any] })
                    .first(where: { LottieValue.int($0["ind"]) == parent })
            else { break }
            links += 1
            guard links <= LottieRenderBudget.maxDepth else {
                throw .beyondRenderLimits("a parent chain over \(LottieRenderBudget.maxDepth) long (or a cycle)")
            }
            current = next
        }
        return box
    }

    /// What a layer draws, in its own coordinates: shapes, a solid's rectangle, an image, a precomp's layers, masks.
    mutating func content(of layer: [String: Any], weight: Double, depth: Int) throws(TGSError) -> Box {
        var box = Box.empty
        for case let mask as [String: Any] in layer["masksProperties"] as? [Any] ?? [] {
            box = box.union(LottieValue.pathBox(mask["pt"]))
        }
        func rectangle(_ width: Any?, _ height: Any?) -> Box {
            Box(x: Span(lo: 0, hi: LottieValue.magnitude(width)), y: Span(lo: 0, hi: LottieValue.magnitude(height)))
        }
        switch LottieValue.int(layer["ty"]) {
        case 0:  // precomp
            guard depth + 1 < LottieRenderBudget.maxDepth else {
                throw .beyondRenderLimits("precomps nested over \(LottieRenderBudget.maxDepth) deep")
            }
            box = box.union(rectangle(layer["w"], layer["h"]))
            if let id = layer["refId"] as? String, let inner = assets[id]?["layers"] as? [Any] {
                for case let child as [String: Any] in inner {
                    box = box.union(try placed(child, among: inner, weight: weight, depth: depth + 1))
                }
            }
        case 1:  // solid
            box = box.union(rectangle(layer["sw"], layer["sh"]))
        case 2:  // image
            if let id = layer["refId"] as? String, let asset = assets[id] {
                box = box.union(rectangle(asset["w"], asset["h"]))
            }
        case 4:  // shapes
            box = box.union(try shapes(layer["shapes"] as? [Any] ?? [], weight: weight, depth: 0))
        default:
            break
        }
        return box
    }

    /// A shape list (a layer's, or a group's `it`) in the coordinates its `tr` maps into. A repeater copies what
    /// comes before it in its list; its copies count in every item's cost (an over-count, as upstream's budget is).
    mutating func shapes(_ items: [Any], weight: Double, depth: Int) throws(TGSError) -> Box {
        guard depth < LottieRenderBudget.maxDepth else {
            throw .beyondRenderLimits("shape groups nested over \(LottieRenderBudget.maxDepth) deep")
        }
        let objects = items.compactMap { $0 as? [String: Any] }
        var weight = weight
        for repeater in objects where repeater["ty"] as? String == "rp" {
            let copies = LottieValue.ranges(repeater["c"], dimensions: 1, fallback: 1)[0].magnitude
            guard copies <= LottieRenderBudget.maxRepeaterCopies else {
                throw .beyondRenderLimits(
                    "a repeater of \(copies) copies (at most \(Int(LottieRenderBudget.maxRepeaterCopies)))")
            }
            weight *= max(1, copies.rounded(.up))
        }
        var box = Box.empty
        var stroke = 0.0
        for item in objects {
            func point(_ key: String) -> [Span] { LottieValue.ranges(item[key], dimensions: 2, fallback: 0) }
            func size(_ key: String) -> Double {
                LottieValue.ranges(item[key], dimensions: 2, fallback: 0).reduce(0) { max($0, $1.magnitude) }
            }
            switch item["ty"] as? String ?? "" {
            case "gr":
                cost += weight
                box = box.union(try shapes(item["it"] as? [Any] ?? [], weight: weight, depth: depth + 1))
            case "rc", "el":
                cost += weight
                let center = point("p"), half = size("s") / 2
                box = box.union(Box(x: center[0].widened(by: half), y: center[1].widened(by: half)))
            case "sr":
                let points = LottieValue.ranges(item["pt"], dimensions: 1, fallback: 5)[0].magnitude
                cost += weight * min(max(points, 1), LottieRenderBudget.maxPolystarPoints)
                let center = point("p")
                let radius = max(size("or"), size("ir"))
                box = box.union(Box(x: center[0].widened(by: radius), y: center[1].widened(by: radius)))
            case "sh":
                cost += weight
                box = box.union(LottieValue.pathBox(item["ks"]))
            case "st", "gs":
                // A miter join reaches up to the miter limit (`ml`, 4 by default) times half the width.
                let miter = max(4, LottieValue.ranges(item["ml"], dimensions: 1, fallback: 4)[0].magnitude)
                stroke = max(stroke, size("w") / 2 * miter)
            case "rp":
                let copies = LottieValue.ranges(item["c"], dimensions: 1, fallback: 1)[0].magnitude
                box = LottieValue.repeated(box, copies: copies.rounded(.up), transform: item["tr"] as? [String: Any])
            default:
                continue
            }
            guard cost <= LottieRenderBudget.maxContentCost else {
                throw .beyondRenderLimits(
                    "over \(Int(LottieRenderBudget.maxContentCost)) shape items once repeaters and precomps expand")
            }
        }
        box = box.widened(by: stroke)
        if let transform = objects.first(where: { $0["ty"] as? String == "tr" }) {
            box = LottieValue.transform(transform, box)
        }
        return box
    }
}

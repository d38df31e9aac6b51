import Foundation

/// A closed interval: the values a coordinate or a property can take over the whole animation.
struct Span: Equatable {
    var lo: Double
    var hi: Double

    static let zero = Span(lo: 0, hi: 0)
    static let empty = Span(lo: .infinity, hi: -.infinity)

    init(lo: Double, hi: Double) { (self.lo, self.hi) = (lo, hi) }
    init(_ value: Double) { (lo, hi) = (value, value) }
    /// `[-radius, radius]`.
    init(radius: Double) { (lo, hi) = (-radius, radius) }

    var isEmpty: Bool { !(lo <= hi) }
    var magnitude: Double { isEmpty ? 0 : max(abs(lo), abs(hi)) }

    func union(_ other: Span) -> Span { Span(lo: min(lo, other.lo), hi: max(hi, other.hi)) }
    func widened(by amount: Double) -> Span { isEmpty ? self : Span(lo: lo - amount, hi: hi + amount) }

    static func + (a: Span, b: Span) -> Span { Span(lo: a.lo + b.lo, hi: a.hi + b.hi) }
    static func - (a: Span, b: Span) -> Span { Span(lo: a.lo - b.hi, hi: a.hi - b.lo) }
    static func * (a: Span, b: Span) -> Span {
        let products = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
        // 0 × ∞ is no number; an unbounded factor makes an unbounded result.
        guard !products.contains(where: \.isNaN) else { return Span(radius: .infinity) }
        return Span(lo: products.min()!, hi: products.max()!)
    }
}

/// An axis-aligned box of drawn points.
struct Box: Equatable {
    var x: Span
    var y: Span

    static let empty = Box(x: .empty, y: .empty)

    var isEmpty: Bool { x.isEmpty || y.isEmpty }
    /// The farthest any coordinate gets from the origin along one axis.
    var magnitude: Double { isEmpty ? 0 : max(x.magnitude, y.magnitude) }
    /// The farthest a point gets from the origin (what a rotation can turn onto one axis).
    var radius: Double { isEmpty ? 0 : (x.magnitude * x.magnitude + y.magnitude * y.magnitude).squareRoot() }

    func union(_ other: Box) -> Box {
        if isEmpty { return other }
        if other.isEmpty { return self }
        return Box(x: x.union(other.x), y: y.union(other.y))
    }

    func widened(by amount: Double) -> Box { Box(x: x.widened(by: amount), y: y.widened(by: amount)) }
}

/// Reading Lottie properties as ranges (the Lottie JSON format: lottiefiles.github.io/lottie-docs): static numbers
/// and vectors, animated ones (`{"a":1,"k":[keyframes]}`) with their easing, split positions, paths.
enum LottieValue {
    static func int(_ value: Any?) -> Int? {
        guard let number = value as? NSNumber else { return nil }
        let double = number.doubleValue
        guard double.isFinite, abs(double) < 1e15 else { return nil }
        return Int(double)
    }

    /// Every number in a value, depth first, object keys in sorted order.
    static func numbers(_ value: Any?) -> [Double] {
        switch value {
        case let number as NSNumber: return [number.doubleValue]
        case let array as [Any]: return array.flatMap { numbers($0) }
        case let object as [String: Any]: return object.keys.sorted().flatMap { numbers(object[$0]) }
        default: return []
        }
    }

    /// The largest absolute number anywhere in a value.
    static func magnitude(_ value: Any?) -> Double { numbers(value).reduce(0) { max($0, abs($1)) } }

    /// What each of `dimensions` components of a property can be at any time (`fallback` when it is absent). A
    /// dimension the value lacks takes the union of those it has (rlottie reads short vectors loosely).
    static func ranges(_ property: Any?, dimensions: Int, fallback: Double) -> [Span] {
        guard let object = property as? [String: Any] else {
            return Array(repeating: Span(fallback), count: dimensions)
        }
        if object["k"] == nil, object["x"] != nil || object["y"] != nil {
            // A position with split dimensions.
            let x = ranges(object["x"], dimensions: 1, fallback: fallback)[0]
            let y = ranges(object["y"], dimensions: 1, fallback: fallback)[0]
            return (0..<dimensions).map { $0 == 0 ? x : $0 == 1 ? y : Span(fallback) }
        }
        var spans: [Span]
        if let keyframes = object["k"] as? [Any], keyframes.first is [String: Any] {
            spans = animated(keyframes.compactMap { $0 as? [String: Any] })
        } else {
            spans = numbers(object["k"]).map { Span($0) }
        }
        guard !spans.isEmpty else { return Array(repeating: Span(fallback), count: dimensions) }
        let whole = spans.reduce(Span.empty) { $0.union($1) }
        return (0..<dimensions).map { $0 < spans.count ? spans[$0] : whole }
    }

    /// Per dimension, what keyframes can take: from `s` to `e` (older exports) or to the next keyframe's `s`, over
    /// start + (end − start) × y for the easing curve's y, which stays within its handles' hull [min(0, y…), max(1,
    /// y…)]; handles carry one y for all dimensions or one each. Spatial tangents (`ti`, `to`) widen a position.
    static func animated(_ keyframes: [[String: Any]]) -> [Span] {
        var spans: [Span] = []
        for (index, keyframe) in keyframes.enumerated() {
            let start = numbers(keyframe["s"])
            let end = numbers(keyframe["e"] ?? (index + 1 < keyframes.count ? keyframes[index + 1]["s"] : nil))
            let yIn = numbers((keyframe["i"] as? [String: Any])?["y"])
            let yOut = numbers((keyframe["o"] as? [String: Any])?["y"])
            let tangents = magnitude(keyframe["ti"]) + magnitude(keyframe["to"])
            for (dimension, from) in start.enumerated() {
                let to = dimension < end.count ? end[dimension] : from
                func pick(_ ys: [Double]) -> [Double] { ys.count > 1 && dimension < ys.count ? [ys[dimension]] : ys }
                let ys = pick(yIn) + pick(yOut)
                let low = min(0, ys.min() ?? 0), high = max(1, ys.max() ?? 1)
                let span = Span(from).union(Span(to)).union(Span(from + (to - from) * low))
                    .union(Span(from + (to - from) * high)).widened(by: tangents)
                if dimension < spans.count {
                    spans[dimension] = spans[dimension].union(span)
                } else {
                    spans.append(span)
                }
            }
        }
        return spans
    }

    /// The box of a path property (a shape's `ks`, a mask's `pt`): every vertex of every keyframe, widened by the
    /// largest tangent and by how far eased keyframes overshoot between them.
    static func pathBox(_ property: Any?) -> Box {
        guard let object = property as? [String: Any] else { return .empty }
        var paths: [[String: Any]] = []
        var widen = 0.0
        if let single = object["k"] as? [String: Any] {
            paths = [single]
        } else if let keyframes = object["k"] as? [Any] {
            let frames = keyframes.compactMap { $0 as? [String: Any] }
            for (index, keyframe) in frames.enumerated() {
                let start = (keyframe["s"] as? [Any])?.compactMap { $0 as? [String: Any] } ?? []
                let endValue = keyframe["e"] ?? (index + 1 < frames.count ? frames[index + 1]["s"] : nil)
                let end = (endValue as? [Any])?.compactMap { $0 as? [String: Any] } ?? []
                paths += start + end
                let ys =
                    numbers((keyframe["i"] as? [String: Any])?["y"]) + numbers((keyframe["o"] as? [String: Any])?["y"])
                let overshoot = max(0, (ys.max() ?? 1) - 1, -(ys.min() ?? 0))
                let a = numbers(start.first?["v"]), b = numbers(end.first?["v"])
                let change =
                    a.count == b.count ? zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) } : magnitude(a) + magnitude(b)
                widen = max(widen, change * overshoot)
            }
        }
        var box = Box.empty
        var tangent = 0.0
        for path in paths {
            for case let vertex as [Any] in path["v"] as? [Any] ?? [] {
                let xy = numbers(vertex)
                guard xy.count >= 2 else { continue }
                box = box.union(Box(x: Span(xy[0]), y: Span(xy[1])))
            }
            tangent = max(tangent, magnitude(path["i"]), magnitude(path["o"]))
        }
        return box.widened(by: tangent + widen)
    }

    /// `box` mapped by a transform object (a layer's `ks`, a group's `tr`): p + S·R·(x − a). Rotation (`r`, `rz`)
    /// or skew (`sk`, widening by 1 + |tan|, capped at 89°) loses the axes: the result is the centered box of the
    /// farthest point's radius.
    static func transform(_ object: [String: Any]?, _ box: Box) -> Box {
        guard let object, !box.isEmpty else { return box }
        let local = scaledAroundAnchor(object, box)
        let position = ranges(object["p"], dimensions: 2, fallback: 0)
        return Box(x: local.x + position[0], y: local.y + position[1])
    }

    /// Copy n of a repeater (`rp` with its `tr`) is x ↦ a + Sⁿ·Rⁿ·(x − a) + n·p: all copies of `box` lie within the
    /// anchor's box widened by Sⁿ·(radius about it) + n·|p|·Sⁿ, with S the largest scale factor (at least 1).
    static func repeated(_ box: Box, copies: Double, transform object: [String: Any]?) -> Box {
        guard let object, !box.isEmpty, copies > 1 else { return box }
        let anchor = ranges(object["a"], dimensions: 2, fallback: 0)
        let scale = max(1, ranges(object["s"], dimensions: 2, fallback: 100).reduce(0) { max($0, $1.magnitude) } / 100)
        let growth = copies * log(scale) > 700 ? Double.infinity : pow(scale, copies)
        let around = Box(x: box.x - anchor[0], y: box.y - anchor[1]).radius
        let step = ranges(object["p"], dimensions: 2, fallback: 0).reduce(0) { max($0, $1.magnitude) }
        let reach = growth * (around + copies * step)
        return box.union(Box(x: anchor[0].widened(by: reach), y: anchor[1].widened(by: reach)))
    }

    private static func scaledAroundAnchor(_ object: [String: Any], _ box: Box) -> Box {
        let anchor = ranges(object["a"], dimensions: 2, fallback: 0)
        let scale = ranges(object["s"], dimensions: 2, fallback: 100).map { $0 * Span(0.01) }
        var local = Box(x: (box.x - anchor[0]) * scale[0], y: (box.y - anchor[1]) * scale[1])
        let turns = ["r", "rz"].contains { key in
            object[key] != nil && ranges(object[key], dimensions: 1, fallback: 0)[0] != .zero
        }
        let skew = min(ranges(object["sk"], dimensions: 1, fallback: 0)[0].magnitude, 89)
        if turns || skew > 0 {
            let radius = local.radius * (1 + abs(tan(skew * .pi / 180)))
            local = Box(x: Span(radius: radius), y: Span(radius: radius))
        }
        return local
    }
}

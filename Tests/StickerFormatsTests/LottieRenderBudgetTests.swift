import Foundation
import StickerFormats
import Testing

/// The bounds checked before rlottie sees an animation: how far its geometry reaches through every transform, and
/// how much work repeaters, polystars and precomps make.
@Suite struct LottieRenderBudgetTests {
    /// A 512×512 animation of one shape layer holding `items` (a group's contents), under the layer transform `ks`.
    static func animation(
        items: [[String: Any]], ks: [String: Any] = [:], assets: [[String: Any]] = [], extraLayers: [[String: Any]] = []
    ) throws -> [UInt8] {
        var layer: [String: Any] = [
            "ty": 4, "ind": 1, "nm": "shapes", "ks": ks, "shapes": [["ty": "gr", "it": items]],
        ]
        layer["ip"] = 0
        layer["op"] = 60
        let root: [String: Any] = [
            "v": "5.5.2", "fr": 60, "ip": 0, "op": 60, "w": 512, "h": 512, "assets": assets,
            "layers": [layer] + extraLayers,
        ]
        return [UInt8](try JSONSerialization.data(withJSONObject: root))
    }

    static func still(_ value: Any) -> [String: Any] { ["a": 0, "k": value] }
    static var square: [String: Any] { ["ty": "rc", "s": still([180, 180]), "p": still([0, 0]), "r": still(28)] }
    static func groupTransform(scale: Double, rotation: Double = 0) -> [String: Any] {
        ["ty": "tr", "p": still([0, 0]), "a": still([0, 0]), "s": still([scale, scale]), "r": still(rotation)]
    }

    static func budget(_ bytes: [UInt8]) throws -> LottieRenderBudget {
        try TGSValidation.inspect(bytes).info.renderBudget
    }

    static func refusal(_ bytes: [UInt8]) -> String? {
        do {
            _ = try TGSValidation.inspect(bytes)
            return nil
        } catch {
            guard case .beyondRenderLimits(let why) = error else { return "other: \(error)" }
            return why
        }
    }

    @Test func theReachOfTheFixtureSquareIsItsPathPlusTheRotatedCorner() throws {
        // square.json: a 180-unit square rotating while it moves from x = 140 to 372 at y = 256. Rotation turns its
        // corner (90·√2 from its center) onto either axis.
        let json = [UInt8](try Data(contentsOf: TGSValidationTests.fixtures.appendingPathComponent("square.json")))
        let budget = try Self.budget(json)
        #expect(abs(budget.extent - (372 + 90 * 2.0.squareRoot())) < 1e-9)
        #expect(budget.contentCost == 2 && budget.layerInstances == 1 && budget.farthestLayer == "box")
        #expect(budget.fitsRender(scale: 2048.0 / 512))
    }

    @Test func aSquareScaledTenThousandfoldCannotBeRenderedLarge() throws {
        // The fuzzer's finding: a group transform of 1,004,100 % put the square's edges millions of pixels out and
        // one frame took rlottie minutes.
        let huge = try Self.budget(
            Self.animation(items: [Self.square, Self.groupTransform(scale: 1_004_100)], ks: ["r": Self.still(1)]))
        #expect(huge.extent > 1_000_000)
        #expect(!huge.fitsRender(scale: 16.0 / 512))
        let modest = try Self.budget(Self.animation(items: [Self.square, Self.groupTransform(scale: 400)]))
        #expect(modest.extent == 360)
        #expect(modest.fitsRender(scale: 4))
    }

    @Test func easingThatOvershootsCountsItsWholeRange() throws {
        // Scale runs from 100 % to 110 % on a curve whose handle reaches y = 100 000: it passes 1,000,000 %.
        let keyframes: [[String: Any]] = [
            ["t": 0, "s": [100, 100], "e": [110, 110], "i": ["x": 0.5, "y": 100_000], "o": ["x": 0.5, "y": 0]],
            ["t": 60],
        ]
        let scale: [String: Any] = ["ty": "tr", "s": ["a": 1, "k": keyframes]]
        let budget = try Self.budget(Self.animation(items: [Self.square, scale]))
        #expect(budget.extent >= 90 * 10_000)
        // The same curve on a value that does not change overshoots nothing.
        let flat: [[String: Any]] = [
            ["t": 0, "s": [100, 100], "e": [100, 100], "i": ["x": 0.5, "y": 100_000], "o": ["x": 0.5, "y": 0]],
            ["t": 60],
        ]
        let still = try Self.budget(Self.animation(items: [Self.square, ["ty": "tr", "s": ["a": 1, "k": flat]]]))
        #expect(still.extent == 90)
    }

    @Test func rotationAboutAnAnchorNearTheShapeStaysNearIt() throws {
        // Exported artwork often anchors a layer at its own far-off position: p + S·R·(x − a) cancels it.
        let far: [String: Any] = ["ty": "el", "s": Self.still([10, 10]), "p": Self.still([-270, 250])]
        let ks: [String: Any] = [
            "a": Self.still([-270, 250, 0]), "p": Self.still([100, 100, 0]), "s": Self.still([300, 300, 100]),
            "r": Self.still(45),
        ]
        let budget = try Self.budget(Self.animation(items: [far], ks: ks))
        #expect(budget.extent < 100 + 15 * 2.0.squareRoot() + 1e-9)
    }

    @Test func repeatersArePaidForPerCopy() throws {
        let copies: [String: Any] = ["ty": "rp", "c": Self.still(20_000), "tr": Self.groupTransform(scale: 100)]
        #expect(Self.refusal(try Self.animation(items: [Self.square, copies]))?.contains("repeater of 20000") == true)
        // 200 copies of a group holding 100 copies of a square are 20,000 shape items, over the 15,000 budget; 100
        // copies of it are 10,000 and pass.
        let hundred: [String: Any] = ["ty": "rp", "c": Self.still(100), "tr": Self.groupTransform(scale: 100)]
        let twoHundred: [String: Any] = ["ty": "rp", "c": Self.still(200), "tr": Self.groupTransform(scale: 100)]
        let inner: [String: Any] = ["ty": "gr", "it": [Self.square, hundred]]
        #expect(Self.refusal(try Self.animation(items: [inner, twoHundred]))?.contains("shape items") == true)
        #expect(try Self.budget(Self.animation(items: [inner, hundred])).contentCost == 1 + 100 + 100 * 100)
        // A repeater that scales every copy by 2 doubles the reach per copy: 2^40 is out of any range.
        let growing: [String: Any] = ["ty": "rp", "c": Self.still(40), "tr": Self.groupTransform(scale: 200)]
        #expect(try Self.budget(Self.animation(items: [Self.square, growing])).extent > 1e12)
    }

    @Test func polystarsCostTheirPoints() throws {
        let star: [String: Any] = ["ty": "sr", "pt": Self.still(1_000), "or": Self.still(50), "ir": Self.still(20)]
        let budget = try Self.budget(Self.animation(items: [star]))
        #expect(budget.contentCost == 1 + 1_000 && budget.extent == 50)  // the layer's group, then the star
        let sixteen: [String: Any] = ["ty": "rp", "c": Self.still(16), "tr": Self.groupTransform(scale: 100)]
        #expect(Self.refusal(try Self.animation(items: [star, sixteen])) != nil)
    }

    @Test func precompCyclesAndParentCyclesAreRefused() throws {
        // An asset whose layer is a precomp of the same asset nests without end.
        let loop: [String: Any] = ["id": "loop", "layers": [["ty": 0, "ind": 1, "refId": "loop", "ks": [:]]]]
        let user: [String: Any] = ["ty": 0, "ind": 2, "refId": "loop", "ks": [:], "w": 512, "h": 512]
        let nested = try Self.animation(items: [Self.square], assets: [loop], extraLayers: [user])
        #expect(Self.refusal(nested)?.contains("precomps nested over 32") == true)
        // Two layers each naming the other as parent.
        let a: [String: Any] = ["ty": 3, "ind": 2, "parent": 3, "ks": [:]]
        let b: [String: Any] = ["ty": 3, "ind": 3, "parent": 2, "ks": [:]]
        let cycle = try Self.animation(items: [Self.square], extraLayers: [a, b])
        #expect(Self.refusal(cycle)?.contains("parent chain") == true)
    }

    @Test func aWidePrecompFanOutIsBoundedByLayerInstances() throws {
        // Each level holds 20 precomp layers of the level below: 20^5 = 3.2 million layer instances.
        var assets: [[String: Any]] = [["id": "l0", "layers": [["ty": 4, "ind": 1, "ks": [:], "shapes": []]]]]
        for level in 1...5 {
            let layers = (1...20).map { ["ty": 0, "ind": $0, "refId": "l\(level - 1)", "ks": [:]] as [String: Any] }
            assets.append(["id": "l\(level)", "layers": layers])
        }
        let top: [String: Any] = ["ty": 0, "ind": 2, "refId": "l5", "ks": [:]]
        let fanned = try Self.animation(items: [], assets: assets, extraLayers: [top])
        #expect(Self.refusal(fanned)?.contains("layers once precomps expand") == true)
    }
}

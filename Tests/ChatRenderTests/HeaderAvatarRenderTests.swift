import ChatRender
import ImageCore
import Postbox
import SyncCore
import Testing
import TextLayout

/// The chat header's avatar: the chat's photo when `ChatMedia.avatar` has one, drawn in the header's circle; else the
/// title's initial on the accent circle.
@Suite struct HeaderAvatarRenderTests {
    @Test func thePhotoReplacesTheInitialsCircle() throws {
        let style = ChatScreenStyle(width: 360, height: 400, scale: 2)
        let side = Int(2 * style.px(ChatScreenStyle.headerAvatarRadius))
        var red = Bitmap(width: side, height: side)
        for y in 0..<side { for x in 0..<side { red[x, y] = RGBA(r: 220, g: 20, b: 30, a: 255) } }
        let picture = try #require(ChatPicture(red, stage: .full))
        let renderer = ChatScreenRenderer(style: style, accountPeerId: .user(1), title: "Bob")
        let radius = style.px(ChatScreenStyle.headerAvatarRadius)
        let centre = (
            x: Int(style.px(style.width) - style.px(12) - radius), y: Int(style.px(style.navigationBarHeight) / 2)
        )
        let plain = renderer.render([]).pixels.pixel(x: centre.x, y: centre.y + Int(radius / 2))
        let photo = renderer.render([], media: ChatMedia(avatar: picture)).pixels.pixel(
            x: centre.x, y: centre.y + Int(radius / 2))
        let accent = style.incomingAccent
        #expect(
            plain.map { abs(Double($0.blue) - accent.blue * 255) < 40 } == true,
            "the accent circle: \(String(describing: plain))")
        #expect(
            photo.map { $0.red > 180 && $0.green < 60 && $0.blue < 80 } == true,
            "the photo: \(String(describing: photo))")
        // Outside the circle (its bounding square's corner) the bar shows through, not the square photo.
        let corner = renderer.render([], media: ChatMedia(avatar: picture)).pixels.pixel(
            x: centre.x - Int(radius) + 2, y: centre.y - Int(radius) + 2)
        #expect(
            corner.map { $0.red < 180 || $0.green > 60 } == true, "clipped to the circle: \(String(describing: corner))"
        )
    }
}

import Foundation
import TestVectors
import Testing

/// Telethon 1.45.0 and link previews' pictures on a real tg-server started with `--webpage-allow 127.0.0.1:P`, the
/// pages served by Tests/Fixtures/webpages/page_server.py (Tests/Fixtures/telethon/server_webpage_photo.py): a page's
/// `og:image` becomes `webPage.photo` (an "article" with `has_large_media`), which Bob downloads as a JPEG of its
/// largest size; an image too big, not a picture or on a host not allowed leaves a preview without photo (the last
/// never fetched); a link to a picture is a "photo" preview; a caption's link gets no preview; a scheduled message
/// gets its page (`updateNewScheduledMessage`) and goes out with it, and one edited to a link (`editMessage` with `schedule_date`) gets it too;
/// `messages.getWebPage` answers the cached page, `webPageNotModified`, `webPageEmpty`.
@Suite struct TelethonWebPagePhotoTests {
    struct Report: Decodable {
        let preview: String?
        let sent: String?
        let bob_got: String?
        let downloaded: String
        let huge: String?
        let text_image: String?
        let foreign: String?
        let picture_link: String?
        let caption: String
        let get_web_page: String?
        let get_web_page_same: String
        let get_web_page_none: String
        let scheduled: String
        let scheduled_filled: String?
        let scheduled_arrived: String?
        let scheduled_edit: [String]
        let scheduled_edit_arrived: String?
        let empty_edits: [String]
        let counts: [String: Int]
    }

    @Test func telethonSeesAndDownloadsAPreviewsPhoto() async throws {
        let (report, _) = try await TelethonPageRun.report("server_webpage_photo.py", as: Report.self)
        let withPhoto = "article|Telegraph & friends|photo|large|640x480"
        let withoutPhoto = "article|Telegraph & friends|-|small|"
        #expect(report.preview == withPhoto)
        #expect(report.sent == withPhoto)
        #expect(report.bob_got == withPhoto)
        #expect(report.downloaded == "ffd8ff 640x480")
        #expect(report.huge == withoutPhoto)
        #expect(report.text_image == withoutPhoto)
        #expect(report.foreign == withoutPhoto)
        #expect(report.picture_link == "photo||photo|large|640x480")
        #expect(report.caption == "MessageMediaPhoto")
        #expect(report.get_web_page == withPhoto)
        #expect(report.get_web_page_same == "WebPageNotModified")
        #expect(report.get_web_page_none == "WebPageEmpty")
        #expect(report.scheduled == "from_scheduled=True WebPagePending")
        #expect(report.scheduled_filled == "article|Telegraph & friends|-|small|")
        #expect(report.scheduled_arrived == "article|Telegraph & friends|-|small|")
        #expect(report.scheduled_edit == ["edited " + withPhoto])
        #expect(report.scheduled_edit_arrived == withPhoto)
        // A text with a preview edited to nothing, sent or scheduled, is MESSAGE_EMPTY: a preview is not media.
        #expect(report.empty_edits == ["MessageEmptyError", "MessageEmptyError"])
        // Each page and picture fetched once (the sent message and getWebPage served from the cache); the huge
        // answer was cut at the bound, and the picture on a host that is not allowed never fetched.
        #expect(
            report.counts == [
                "/with-image": 1, "/picture.png": 2, "/huge-image": 1, "/huge.png": 1, "/text-image": 1,
                "/text.png": 1, "/foreign-image": 1, "/scheduled": 1,
            ])
    }
}

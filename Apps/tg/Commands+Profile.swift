import ArgumentParser
import CommandLineOutput
import MediaResources
import SyncCore
import TelegramClient

struct Username: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Take a username (others find you as @NAME), or remove it with \"\".",
        discussion: """
            5–32 letters, digits and underscores, a letter first, no underscore at the end (account.updateUsername). \
            Prints @NAME, or with --json {"username": NAME} (null once removed). A name someone else has is refused \
            (exit 6).
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The username, with or without '@'; \"\" removes it.") var name: String

    func run() async throws {
        let stored = try await global.withOnlineAccount { _, account in
            try await ProfileCommands.setUsername(account, name)
        }
        if output.json { return try Output.json(["username": stored]) }
        print(stored.map { "@" + $0 } ?? "no username")
    }
}

struct ProfilePhoto: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile-photo",
        abstract: "Make a picture your profile photo.",
        discussion: """
            The picture (JPEG, PNG or WebP) is prepared as a photo is for sending (at most 1280 px, JPEG), uploaded, \
            and named in photos.uploadProfilePhoto; your contacts and private chats see it (updateUser). A file that \
            is no picture is exit 2 before anything is sent. Prints the photo's size.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The picture.") var picture: String

    func run() async throws {
        let prepared: PreparedPhoto
        do { prepared = try OutgoingPhoto.prepare(path: picture) } catch {
            throw ToolError.badInput("\(picture): \(error)", remedy: "give a JPEG, PNG or WebP picture")
        }
        try await global.withOnlineAccount { _, account in
            try await ProfileCommands.setPhoto(account, jpeg: prepared.jpeg)
        }
        let size = ["width": Int(prepared.dimensions.width), "height": Int(prepared.dimensions.height)]
        if output.json { return try Output.json(size) }
        print("profile photo set (\(prepared.dimensions.width)×\(prepared.dimensions.height))")
    }
}

import ArgumentParser
import CommandLineOutput

/// `voice-tool`: WAV ↔ Ogg/Opus voice notes with Telegram's settings, and their 63-byte waveform.
@main
struct VoiceTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voice-tool",
        abstract: "Encode and decode Telegram voice notes (Ogg/Opus, 48 kHz mono, 30 kbit/s) and draw their waveform.",
        discussion: ToolExitCode.helpText,
        subcommands: [Encode.self, Decode.self, Waveform.self, Info.self])

    static func main() { runAsTool() }
}

import Foundation
import Postbox

/// The crash test's view into `rekey`: with `POSTBOX_TOOL_REKEY_TRACE=1` each completed phase prints
/// `phase <name>` on standard output as it happens; with `POSTBOX_TOOL_REKEY_PAUSE=<name>` the tool also stops at
/// that phase (until it is killed), so a test can SIGKILL it at an exact point.
enum RekeyPhaseHook {
    static func fromEnvironment() -> ((PostboxRekeyPhase) -> Void)? {
        let environment = ProcessInfo.processInfo.environment
        let pause = environment["POSTBOX_TOOL_REKEY_PAUSE"]
        guard pause != nil || environment["POSTBOX_TOOL_REKEY_TRACE"] == "1" else { return nil }
        return { phase in
            // Unbuffered, so the parent sees the line before it decides to kill.
            FileHandle.standardOutput.write(Data("phase \(phase.rawValue)\n".utf8))
            if phase.rawValue == pause {
                while true { sleep(60) }
            }
        }
    }
}
